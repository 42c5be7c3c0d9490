"""Notebook 03e's exercise refuses plausible wrong answers, each with a hint naming what is wrong,
and accepts the right one, however it is written."""

import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict
from chunklab.teaching.selfcheck import verdict_for

sys.path.insert(0, str(ROOT))
from solutions.exercises import chunk_again  # noqa: E402

# --- 03e.1: which documents a refresh chunks again ------------------------------------------------


def _changed_only(stored, now):  # stored fingerprints compared, new documents forgotten
    return sorted(d for d in now if d in stored and stored[d] != now[d])


def _ids_only(stored, now):  # ids compared, the fingerprint forgotten
    return sorted(d for d in now if d not in stored)


def _both_ways(stored, now):  # a symmetric difference: deleted documents come back too
    return sorted({d for d, _ in set(stored.items()) ^ set(now.items())})


def _everything(stored, now):  # no fingerprint read at all
    return sorted(now)


def _any_stored_fingerprint(stored, now):  # looked up among all stored ones, not under its id
    return sorted(d for d in now if now[d] not in set(stored.values()))


def _unsorted(stored, now):  # the right ids, in the folder's order
    return [d for d in reversed(list(now)) if stored.get(d) != now[d]]


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_changed_only, "no stored fingerprint is new"),
        (_ids_only, "you compared ids only"),
        (_both_ways, "was deleted"),
        (_everything, "is unchanged: skip it"),
        (_unsorted, "return them sorted"),
        (_any_stored_fingerprint, "stored under the same id"),
    ],
)
def test_03e_1_refuses_with_a_hint(fn, hint):
    result = verdict("03e.1", fn)
    assert not result.passed and hint in result.message, result.message


def test_03e_1_accepts_a_loop_as_well_as_a_comprehension():
    def by_loop(stored, now):
        out = []
        for doc_id in sorted(now):
            if doc_id not in stored or stored[doc_id] != now[doc_id]:
                out.append(doc_id)
        return out

    assert verdict("03e.1", chunk_again).passed
    assert verdict("03e.1", by_loop).passed


# --- 03e.2: a new token counter and one edited document ------------------------------------------

WRONG_03E_2 = [
    ((1, 1), "takes in count_tokens.__name__"),  # the settings' fingerprint read as the text's
    ((3, 3), "reads the text alone"),  # the content hash read as if it held the settings
    ((1, 1), "which documents' fingerprints"),  # asks, rather than saying "every document"
    ((3, 3), "which documents' text changed"),  # asks, rather than saying "only the manual"
    ((0, 3), "its content_hash changed too"),  # the edit forgotten
    ((3, 1), "the order"),  # the two counts swapped
    ((0, 0), "not a repeat of the first"),  # nothing changed, it seems
    ((1, 2), "the second count"),  # the first right, the second off
    ((2, 3), "the first count"),  # the second right, the first off
    ((0, 1), "its content_hash changed too"),  # the edit forgotten, the second count off as well
]


@pytest.mark.parametrize(("answer", "hint"), WRONG_03E_2, ids=repr)
def test_03e_2_refuses_with_a_hint(answer, hint):
    message = verdict_for("03e.2", answer)
    assert "not quite" in message and hint in message, message


def test_03e_2_hints_do_not_state_the_other_count():
    """(3, 3) and (1, 1) each get the first or second count wrong: a hint that says "only the
    edited manual" or "every document" hands over that count, and the answer in two guesses."""
    for answer in [(1, 1), (3, 3)]:
        message = verdict_for("03e.2", answer)
        assert "only the edited manual" not in message and "every document" not in message, message


def test_03e_2_accepts_the_counts_found_by_running_refresh():
    """The learner's way: the notebook's loop run twice, each fingerprint, counter changed."""
    from chunklab import approx_tokens, cl100k, load_document
    from chunklab.chunkers.markdown import MarkdownChunker
    from chunklab.retrieval.index import ParentChildIndex, index_document

    def run_twice(fingerprint):
        docs = {d: load_document(d) for d in ["travel_policy", "manual_en", "topics"]}
        index, counts = ParentChildIndex(), []
        for counter in [approx_tokens, cl100k]:
            if counter is cl100k:
                manual = docs["manual_en"]
                docs["manual_en"] = manual.model_copy(update={"text": manual.text + "\nUpdated.\n"})
            chunker, chunked = MarkdownChunker(max_tokens=45, count_tokens=counter), 0
            for doc in docs.values():
                made_from = fingerprint(doc, chunker)
                if index.store.fingerprint("acme", doc.doc_id) != made_from:
                    index_document(
                        index,
                        chunker.parents(doc),
                        chunker.split(doc),
                        tenant="acme",
                        fingerprint=made_from,
                    )
                    chunked += 1
            counts.append(chunked)
        return counts[-1]

    def with_settings(doc, chunker):
        return f"{doc.content_hash}|{chunker.max_tokens}|{chunker.count_tokens.__name__}"

    answer = (run_twice(lambda doc, chunker: doc.content_hash), run_twice(with_settings))
    assert verdict_for("03e.2", answer) == "Exercise 03e.2: correct."
    assert verdict_for("03e.2", list(answer)) == "Exercise 03e.2: correct."


def _fingerprints(stored, now):  # the values of `now` handed back, not its keys
    return sorted(now[d] for d in now if stored.get(d) != now[d])


def _unchanged(stored, now):  # the condition turned round: the documents to skip
    return sorted(d for d in now if stored.get(d) == now[d])


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_fingerprints, "you returned fingerprints"),
        (_unchanged, "you returned the unchanged documents"),
    ],
)
def test_03e_1_names_the_fingerprint_and_unchanged_slips(fn, hint):
    """Fingerprints in place of ids are not "an id not in the folder", and the unchanged ids
    get more than "not the ids expected": each hint names its slip."""
    result = verdict("03e.1", fn)
    assert not result.passed and hint in result.message, result.message
