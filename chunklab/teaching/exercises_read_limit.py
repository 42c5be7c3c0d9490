"""Companion 09d's check (09d.1): whether the part of a chunk an embedder reads holds every fact of
a question, the measure *complete@1* is not (it credits a chunk holding the facts whether its
vector read them or not). Run on texts and stopping points the notebook never shows, each refusal
naming the slip it recognised (the whole chunk tested, the unread tail tested, one fact enough,
case kept, the last character read left out, one character past the stop
read, a fact only started before the stop).
Registered in `exercises`."""

from __future__ import annotations

from collections.abc import Callable

from chunklab.evaluation.metrics import has_facts
from chunklab.teaching.checking import NotYet, consistent_slips, short

Case = tuple[str, list[str], Callable[[str], int]]


def _stops_at(at: int) -> Callable[[str], int]:
    """A stand-in for `minilm.read_until`: the model stops reading at character `at`."""
    return lambda text: min(at, len(text))


def _read_at_1(text: str, facts: list[str], read_until: Callable[[str], int]) -> int:
    return int(has_facts(text[: read_until(text)], facts))


_SLIPS: list[tuple[Callable[..., int], str]] = [
    (
        lambda t, f, r: int(has_facts(t, f)),
        "that tests the whole chunk, as complete@1 does: it credits facts the model never read; "
        "test only text[:read_until(text)]",
    ),
    (
        lambda t, f, r: int(has_facts(t[r(t) :], f)),
        "that tests the part never read, text[read_until(text):]; the vector holds the part "
        "before it",
    ),
    (
        lambda t, f, r: int(any(x.lower() in t[: r(t)].lower() for x in f)),
        "one fact read is not enough: the part read must hold every fact",
    ),
    (
        lambda t, f, r: int(all(x in t[: r(t)] for x in f)),
        "a fact is found whatever its case, as has_facts finds it: lower-case both sides",
    ),
    (
        lambda t, f, r: int(has_facts(t[: r(t) - 1], f)),
        "read_until(text) is the first character NOT read: text[:read_until(text)] keeps the "
        "last character read",
    ),
    (
        lambda t, f, r: int(has_facts(t[: r(t) + 1], f)),
        "read_until(text) is already the first character NOT read, not the last one read: "
        "text[:read_until(text)] is all the model reads; + 1 adds a character it never read",
    ),
    (
        lambda t, f, r: int(all(0 <= t.lower().find(x.lower()) < r(t) for x in f)),
        "a fact that starts before the stop but ends past it was not read whole: test each fact "
        "inside text[:read_until(text)]",
    ),
]


def _cases() -> list[Case]:
    """(text, facts, read_until): a fact read, a fact past the stop, a fact cut by the stop, a
    fact ending on the last character read or one past it, facts in another case, a text read to
    its end."""
    policy = "Per diem covers meals. Lodging is reimbursed separately at cost. Tips are not."
    return [
        (policy, ["meals"], _stops_at(23)),
        (policy, ["meals", "Lodging"], _stops_at(23)),
        (policy, ["lodging"], _stops_at(23)),
        (policy, ["tips"], _stops_at(23)),
        (policy, ["per diem", "LODGING"], _stops_at(80)),
        (policy, ["Lodging", "cost"], _stops_at(len("Per diem covers meals. Lodging is reimb"))),
        (policy, ["cost"], _stops_at(policy.index("cost") + 4)),
        (policy, ["cost"], _stops_at(policy.index("cost") + 3)),
        (policy, ["tips"], _stops_at(policy.index("Tips") + 2)),
        (policy, ["Tips", "meals"], _stops_at(len(policy))),
        ("Economy class for flights under 6 hours.", ["6 hours", "Business"], _stops_at(400)),
        ("Economy class for flights under 6 hours.", ["economy", "6 HOURS"], _stops_at(12)),
    ]


def check_read_at_1(fn: Callable) -> int:
    """09d.1: 1 when the part of `text` the model reads, `text[:read_until(text)]`, holds every
    fact (case ignored), else 0, on every case."""
    cases = _cases()
    for text, facts, read_until in cases:
        got = fn(text, list(facts), read_until)
        if isinstance(got, str) or got not in (0, 1):  # numpy's booleans count too
            raise NotYet(f"return 1 or 0 (True or False), not {short(got)}")
        expected = _read_at_1(text, facts, read_until)
        if int(got) != expected:
            named = consistent_slips(fn, _SLIPS, cases, shape=int)
            why = named[0] if named else "test every fact in text[:read_until(text)], case ignored"
            raise NotYet(
                f"text {short(text)}, facts {facts}, read up to character {read_until(text)}: "
                f"expected {expected}, got {int(got)}: {why}"
            )
    return len(cases)


CHECKS_READ_LIMIT = {
    "09d.1": ("read_at_1(text, facts, read_until) -> 1 or 0", check_read_at_1),
}
