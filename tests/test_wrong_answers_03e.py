"""Notebook 03e's exercise refuses plausible wrong answers, each with a hint naming what is wrong,
and accepts the right one, however it is written."""

import hashlib
import sys
import uuid

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict

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


# --- 03e.2: the learner writes the fingerprint -------------------------------------------------


def _hashed(doc, settings):  # one correct way: a hash over title, text and the sorted settings
    made_from = [doc.title, doc.text, sorted(settings.items())]
    return hashlib.sha256(repr(made_from).encode()).hexdigest()


def _joined(doc, settings):  # another: no hash, every part kept with a separator
    named = "|".join(f"{name}={settings[name]}" for name in sorted(settings))
    return f"{doc.title}\n{doc.content_hash}\n{named}"


def test_03e_2_accepts_a_correct_fingerprint_written_two_ways():
    assert verdict("03e.2", _hashed).passed
    assert verdict("03e.2", _joined).passed


def test_03e_2_refuses_the_library_call():
    """The old route: the library's fingerprint called, nothing written (fails on the old check,
    where 03e.2 was a tuple of counts and took no function)."""
    from chunklab.retrieval.ingest import document_fingerprint

    def library(doc, settings):
        return document_fingerprint(doc.title, doc.text, repr(sorted(settings.items())))

    result = verdict("03e.2", library)
    assert not result.passed and "calls the library's" in result.message, result.message


WRONG_03E_2 = [
    (lambda doc, settings: doc.content_hash, "the settings are not in it"),
    (
        lambda doc, s: f"{doc.title}|{doc.content_hash}|{s.get('max_tokens')}|{s.get('counter')}",
        "not only max_tokens and the counter",
    ),
    (lambda doc, settings: f"{doc.title}|{doc.content_hash}|{settings}", "in another order"),
    (
        lambda doc, s: f"{doc.content_hash}|{sorted(s.items())}",
        "writes the title into every chunk",
    ),
    (
        lambda doc, s: f"{doc.title}|{doc.text}|" + "".join(str(s[k]) for k in sorted(s)),
        "45 and 5 glued together",
    ),
    (
        lambda doc, s: f"{doc.title}|{doc.text}|" + "|".join(str(s[k]) for k in sorted(s)),
        "put each setting's name in it",
    ),
    (  # settings whose value is 0 or False dropped: the names are there, the slip is the `if v`
        lambda doc, s: (
            f"{doc.title}|{doc.text}|" + "|".join(f"{k}={v}" for k, v in sorted(s.items()) if v)
        ),
        "keep every setting, whatever its value",
    ),
    (
        lambda doc, s: doc.title + doc.text + str(sorted(s.items())),
        "a separator between the title",
    ),
    (lambda doc, settings: len(doc.text), "return a str"),
    (  # names and values glued: {"window": 10} reads as {"window1": 0}
        lambda doc, s: f"{doc.title}|{doc.text}|" + "|".join(f"{k}{s[k]}" for k in sorted(s)),
        "a separator between each setting's name and its value",
    ),
    (
        lambda doc, s: doc.text + doc.title + "|".join(f"{k}={s[k]}" for k in sorted(s)),
        "a separator between the text and the title",
    ),
    (
        lambda doc, s: f"{doc.title}|{doc.text}|{sorted(doc.metadata.items())}|{sorted(s.items())}",
        "leave the metadata out",
    ),
    (  # salted per process: right on every pair in one run, never matches in the next
        lambda doc, s: str(hash((doc.text, doc.title, frozenset(s.items())))),
        "built-in hash()",
    ),
    (
        lambda doc, s: str(hash(f"{doc.title}\n{doc.text}\n{sorted(s.items())}")),
        "built-in hash()",
    ),
]


@pytest.mark.parametrize(("fn", "hint"), WRONG_03E_2)
def test_03e_2_refuses_each_slip_with_its_hint(fn, hint):
    result = verdict("03e.2", fn)
    assert not result.passed and hint in result.message, result.message


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


_SALT = uuid.uuid4().hex  # made once when this Python starts


def _frozenset_settings(doc, s):  # right within one run; the set's order moves with PYTHONHASHSEED
    made_from = doc.text + "\0" + doc.title + "\0" + str(frozenset(s.items()))
    return hashlib.blake2b(made_from.encode(), digest_size=16).hexdigest()


def _salted_per_run(doc, s):  # a random salt made at start-up: never matches on the next run
    made_from = _SALT + doc.text + "\0" + doc.title + "\0" + str(sorted(s.items()))
    return hashlib.blake2b(made_from.encode(), digest_size=16).hexdigest()


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_frozenset_settings, "frozenset"),
        (_salted_per_run, "reads _SALT"),
    ],
)
def test_03e_2_refuses_fingerprints_that_change_on_the_next_run(fn, hint):
    """Both passed every pair of the old check, which refused only a call to hash()."""
    result = verdict("03e.2", fn)
    assert not result.passed and hint in result.message, result.message


def test_03e_2_frozenset_slip_really_moves_between_runs():
    """The slip the check simulates is real: under two PYTHONHASHSEEDs the frozenset's string
    differs (the check's two salted hashings stand for those two runs)."""
    import subprocess
    import sys

    code = (
        "s={'strategy':'markdown','max_tokens':45,'counter':'approx_tokens','prefix':True};"
        "print(str(frozenset(s.items())))"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ["1", "2", "3", "4"]
    }
    assert len(outs) > 1


def test_03e_1_a_set_is_told_it_has_no_order():
    """The old hint, "the right ids in another order", misnamed a set, which has no order."""
    result = verdict("03e.1", lambda stored, now: {d for d in now if stored.get(d) != now[d]})
    assert not result.passed and "a set has no order" in result.message, result.message


_SEPARATOR = b"\0"  # constants a correct answer may read: not made at start-up
_FORMAT = "2024-06-01"
_NAME = "chunklab_fingerprint_v2"


def _with_constants(doc, s):  # correct: a fixed separator, a format date and a name, every run
    h = hashlib.sha256(_FORMAT.encode() + _SEPARATOR + _NAME.encode())
    for part in (doc.title, doc.text, repr(sorted(s.items()))):
        h.update(_SEPARATOR + part.encode())
    return h.hexdigest()


def test_03e_2_accepts_constants_that_are_the_same_on_every_run():
    """The first salt check refused any bytes, any 8 hex digits or dashes ("2024-06-01") and any
    16-character name with a digit, so this correct fingerprint was told it read a random salt."""
    assert verdict("03e.2", _with_constants).passed, verdict("03e.2", _with_constants).message


@pytest.mark.parametrize(
    "salt",
    [
        "2dde188ba00a43b3bcea108766c5a018",  # what uuid4().hex gives, written out: ids stay fixed
        "b3c60cf0-c817-44da-9a97-19799ee57d08",  # str(uuid4())
        "Xy7_q9Lk-2mZ8pRt",  # secrets.token_urlsafe(12)
        b"\x8f\x13" * 8,  # os.urandom(16)
        0.123,  # random.random()
    ],
    ids=["uuid4-hex", "uuid4", "token_urlsafe", "urandom", "random"],
)
def test_03e_2_still_refuses_a_value_made_at_start_up(salt):
    def salted(doc, s):
        return hashlib.sha256(
            (repr(salt) + doc.title + doc.text + repr(sorted(s.items()))).encode()
        ).hexdigest()

    result = verdict("03e.2", salted)
    assert not result.passed and "reads salt" in result.message, result.message


def _set_of_strings(doc, s):  # the strings are built here, so the check's salted names miss them
    made_from = doc.text + "\0" + doc.title + "\0" + str(set(f"{k}={v}" for k, v in s.items()))
    return hashlib.blake2b(made_from.encode(), digest_size=16).hexdigest()


def _sorted_set(doc, s):  # correct: the set read through sorted()
    made_from = doc.text + "\0" + doc.title + "\0" + str(sorted({f"{k}={v}" for k, v in s.items()}))
    return hashlib.blake2b(made_from.encode(), digest_size=16).hexdigest()


def test_03e_2_refuses_a_set_of_strings_built_inside():
    """Passed the old check: its salted setting names never reach strings the function builds,
    yet such a set's order moves with PYTHONHASHSEED."""
    result = verdict("03e.2", _set_of_strings)
    assert not result.passed and "without sorted()" in result.message, result.message


def test_03e_2_accepts_a_set_read_through_sorted():
    assert verdict("03e.2", _sorted_set).passed, verdict("03e.2", _sorted_set).message


def test_03e_2_accepts_a_set_beside_json_sorted_keys():
    import json

    def fingerprint(doc, s):  # a set of names to skip, the settings read through sort_keys
        skip = {"metadata", "notes"}
        kept = {k: v for k, v in s.items() if k not in skip}
        return f"{doc.title}\n{doc.text}\n{json.dumps(kept, sort_keys=True)}"

    assert verdict("03e.2", fingerprint).passed, verdict("03e.2", fingerprint).message


def test_03e_2_metadata_case_shows_the_metadata_that_differs():
    """The metadata slip's case printed two identical-looking sides: the metadata is shown."""
    result = verdict(
        "03e.2",
        lambda doc, s: f"{doc.title}|{doc.text}|{sorted(doc.metadata.items())}|{sorted(s.items())}",
    )
    assert not result.passed and "metadata {'owner': 'finance'}" in result.message, result.message
