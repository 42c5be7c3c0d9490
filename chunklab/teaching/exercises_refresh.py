"""Companion 03e's exercises: which documents a refresh must chunk again (03e.1, a check), and
how many a fingerprint with and without the settings re-chunks after a new token counter (03e.2,
an answer computed from the library), each with the slips it names.

Why a check of its own: the rule is one line (new, or a fingerprint that differs), and each
plausible shortcut is right on a folder where nothing was added or deleted: comparing ids only
finds the new documents and misses the edited ones, comparing stored fingerprints only misses the
new ones, and a set difference of (id, fingerprint) pairs taken both ways hands back the deleted
documents too, which have nothing left to chunk. The fixed cases hold each of those at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.contracts import Document
from chunklab.documents.series import load_document
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.teaching.answers import Form
from chunklab.teaching.checking import NotYet, short
from chunklab.tokens.counters import approx_tokens, cl100k

Fingerprints = dict[
    str, str
]  # doc id -> the fingerprint of the text (and settings) it was cut from


def chunk_again_expected(stored: Fingerprints, now: Fingerprints) -> list[str]:
    """The answer: the ids in the folder now that are new or whose fingerprint changed, sorted."""
    return sorted(d for d, fingerprint in now.items() if stored.get(d) != fingerprint)


SLIPS: list[tuple[Callable[[Fingerprints, Fingerprints], list[str]], str]] = [
    (
        lambda stored, now: sorted(d for d in now if d in stored and stored[d] != now[d]),
        "a document with no stored fingerprint is new: it was never chunked, so chunk it",
    ),
    (
        lambda stored, now: sorted(d for d in now if d not in stored),
        "you compared ids only: a document whose fingerprint differs from the stored one was "
        "edited, so chunk it again",
    ),
    (
        lambda stored, now: sorted({d for d, _ in set(stored.items()) ^ set(now.items())}),
        "an id stored but no longer in the folder was deleted: there is nothing to chunk "
        "(removing its rows is another step, the command's --prune)",
    ),
    (
        lambda stored, now: sorted(now),
        "a document whose fingerprint equals the stored one is unchanged: skip it",
    ),
    (
        lambda stored, now: sorted(d for d in now if now[d] not in set(stored.values())),
        "you looked the fingerprint up among every stored one: compare it with the one stored "
        "under the same id (stored.get(doc_id)), since two documents can share a fingerprint",
    ),
]

CASES: list[tuple[Fingerprints, Fingerprints]] = [
    # one edited, one new, one deleted, one unchanged: every slip above fails here
    ({"a": "1", "b": "2", "c": "3"}, {"a": "1", "b": "9", "d": "4"}),
    ({}, {"x": "1", "y": "2"}),  # the first run: everything is new
    ({"x": "1", "y": "2"}, {"x": "1", "y": "2"}),  # nothing changed
    ({"x": "1"}, {}),  # the folder emptied: nothing to chunk
    ({"b": "1", "a": "1"}, {"b": "2", "a": "2"}),  # both edited, given out of order
]


def _why(got: list, stored: Fingerprints, now: Fingerprints) -> str:
    for slip, why in SLIPS:
        if got == slip(stored, now):
            return why
    expected = chunk_again_expected(stored, now)
    fingerprints = set(now.values()) | set(stored.values())
    if got and all(d in fingerprints and d not in now for d in got):
        return "you returned fingerprints: return the ids (the keys of `now`), not their values"
    if got == sorted(d for d in now if stored.get(d) == now[d]) != expected:
        return "you returned the unchanged documents: chunk the others, new or edited"
    if sorted(got) == expected:
        return "the right ids in another order: return them sorted"
    if any(d not in now for d in got):
        return "an id that is not in the folder now came back: only documents in `now` are chunked"
    return "not the ids expected"


def check_chunk_again(fn: Callable) -> int:
    rng, cases = random.Random(7), list(CASES)
    for _ in range(40):
        ids = [f"doc{n}" for n in range(rng.randint(0, 6))]
        stored = {d: str(rng.randint(0, 2)) for d in ids if rng.random() < 0.7}
        now = {d: str(rng.randint(0, 2)) for d in ids if rng.random() < 0.7}
        cases.append((stored, now))
    for stored, now in cases:
        expected = chunk_again_expected(stored, now)
        got = list(fn(dict(stored), dict(now)))
        if got != expected:
            raise NotYet(
                f"{_why(got, stored, now)}. Case: stored {stored}, now {now}: expected "
                f"{expected}, got {short(got)}"
            )
    return len(cases)


# --- 03e.2: a new token counter and one edited document -------------------------------------------

SERIES = ["travel_policy", "manual_en", "topics"]  # the three documents 03e indexes


def _with_settings(doc: Document, chunker: MarkdownChunker) -> str:
    """03e's fingerprint of the text and what cuts it (the notebook's `with_settings`)."""
    return f"{doc.content_hash}|max_tokens={chunker.max_tokens}|{chunker.count_tokens.__name__}"


def _content_hash(doc: Document, chunker: MarkdownChunker) -> str:
    return doc.content_hash


def _chunked_on_the_second_run(fingerprint: Callable[[Document, MarkdownChunker], str]) -> int:
    """Index the three documents at 45 word-based tokens, then run again with cl100k as the
    counter and the manual edited (one line added): how many documents the second run chunks."""
    docs = {d: load_document(d) for d in SERIES}
    index = ParentChildIndex()
    for run, chunker in enumerate([approx_tokens, cl100k]):
        cutter = MarkdownChunker(max_tokens=45, count_tokens=chunker)
        if run:
            manual = docs["manual_en"]
            docs["manual_en"] = manual.model_copy(update={"text": manual.text + "\nUpdated.\n"})
        chunked = 0
        for doc in docs.values():
            made_from = fingerprint(doc, cutter)
            if index.store.fingerprint("acme", doc.doc_id) != made_from:
                index_document(
                    index,
                    cutter.parents(doc),
                    cutter.split(doc),
                    tenant="acme",
                    fingerprint=made_from,
                )
                chunked += 1
    return chunked


def _chunked_both_ways() -> tuple[int, int]:
    return (_chunked_on_the_second_run(_content_hash), _chunked_on_the_second_run(_with_settings))


def _chunked_hints() -> dict[object, str]:
    """03e.2's slips, each answer computed from the runs, never typed in."""
    alone, settings = _chunked_both_ways()
    hints: dict[object, str] = {
        (alone, alone): "the second count: `with_settings` takes in count_tokens.__name__, "
        "and the counter changed; which documents' fingerprints does that touch?",
        (settings, settings): "the first count: the content hash reads the text alone, and a "
        "new counter changes no text; which documents' text changed?",
        (0, settings): "the manual's text changed (a line added), so its content_hash changed too",
        (settings, alone): "the order: (chunked with the content_hash alone, chunked with the "
        "settings in the fingerprint)",
        (0, 0): "the second run is not a repeat of the first: the counter is new and the manual "
        "was edited",
    }
    first_wrong, second_wrong = hints[(settings, settings)], hints[(alone, alone)]
    for n in range(len(SERIES) + 1):  # one count right, the other not: name which one is off
        hints.setdefault((n, settings), first_wrong)
        hints.setdefault((alone, n), second_wrong)
    for n in range(len(SERIES) + 1):  # a first count of 0: the edit forgotten, whatever the second
        hints.setdefault((0, n), hints[(0, settings)])
    hints.pop((alone, settings), None)
    return hints


SOLUTIONS_REFRESH: dict[str, tuple[str, Callable[[], object]]] = {
    "03e.2": ("a tuple of two ints: (content_hash alone, with the settings)", _chunked_both_ways),
}
FORMS_REFRESH: dict[str, Form] = {"03e.2": Form(misses=_chunked_hints)}
