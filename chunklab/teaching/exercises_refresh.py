"""Companion 03e's exercise 03e.1: which documents a refresh must chunk again, and the slips it
names (03e.2, the fingerprint itself, is checked in `exercises_fingerprint`).

Why a check of its own: the rule is one line (new, or a fingerprint that differs), and each
plausible shortcut is right on a folder where nothing was added or deleted: comparing ids only
finds the new documents and misses the edited ones, comparing stored fingerprints only misses the
new ones, and a set difference of (id, fingerprint) pairs taken both ways hands back the deleted
documents too, which have nothing left to chunk. The fixed cases hold each of those at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, short
from chunklab.teaching.exercises_fingerprint import CHECKS_FINGERPRINT

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
        answer = fn(dict(stored), dict(now))
        got = list(answer)
        if got != expected:
            if isinstance(answer, set | frozenset) and sorted(got) == expected:
                raise NotYet("a set has no order: return the ids as a sorted list")
            raise NotYet(
                f"{_why(got, stored, now)}. Case: stored {stored}, now {now}: expected "
                f"{expected}, got {short(got)}"
            )
    return len(cases)


CHECKS_REFRESH: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03e.1": ("chunk_again(stored, now) -> sorted list of doc ids", check_chunk_again),
    **CHECKS_FINGERPRINT,  # 03e.2
}
