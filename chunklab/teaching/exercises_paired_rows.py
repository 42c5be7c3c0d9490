"""Companion 06b's pairing exercise (06b.1): line up two strategies' scores question by question.

`paired_differences(rows, a, b, measure)` takes experiment rows (dicts with "question", "strategy"
and the measure) and returns {question: a's measure - b's} for every question scored under both.
Every row carries "k" (3, one k, as the notebook's are), so a filter on it is harmless, and a
KeyError is answered with the keys the rows hold. The check's rows come in an order of their own
(so pairing by position fails), hold a question scored under one strategy only (so counting it as
0 fails), and hold a third strategy (so reading rows without their strategy fails). A wrong
answer that calls the library's `compare` or `paired`, which pair scores already lined up, is
refused for that call: lining them up is the exercise. A right answer that also calls `compare`
as a side check passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from chunklab.evaluation.bootstrap import paired
from chunklab.teaching.checking import NotYet, calls_to, short
from chunklab.teaching.claims import compare

Rows = list[dict[str, Any]]


def paired_expected(rows: Rows, a: str, b: str, measure: str) -> dict[str, float]:
    """The answer: each question scored under both strategies, a's measure less b's."""
    of = {(r["strategy"], r["question"]): r[measure] for r in rows}
    both = {q for s, q in of if s == a} & {q for s, q in of if s == b}
    return {q: of[a, q] - of[b, q] for q in sorted(both)}


def paired_by_position(rows: Rows, a: str, b: str, measure: str) -> dict[str, float]:
    ours = [r for r in rows if r["strategy"] == a]
    theirs = [r for r in rows if r["strategy"] == b]
    return {x["question"]: x[measure] - y[measure] for x, y in zip(ours, theirs, strict=False)}


def paired_sorted_and_zipped(rows: Rows, a: str, b: str, measure: str) -> dict[str, float]:
    """Each side sorted by question id, then zipped: right only when both hold the same ids."""
    ours = sorted((r["question"], r[measure]) for r in rows if r["strategy"] == a)
    theirs = sorted((r["question"], r[measure]) for r in rows if r["strategy"] == b)
    return {q: x - y for (q, x), (_, y) in zip(ours, theirs, strict=False)}


def paired_missing_as_zero(rows: Rows, a: str, b: str, measure: str) -> dict[str, float]:
    of = {(r["strategy"], r["question"]): r[measure] for r in rows}
    asked = {q for s, q in of if s in (a, b)}
    return {q: of.get((a, q), 0) - of.get((b, q), 0) for q in sorted(asked)}


def paired_any_strategy(rows: Rows, a: str, b: str, measure: str) -> dict[str, float]:
    """The b side read from every row that is not a's: a third strategy overwrites it."""
    ours = {r["question"]: r[measure] for r in rows if r["strategy"] == a}
    theirs = {r["question"]: r[measure] for r in rows if r["strategy"] != a}
    return {q: ours[q] - theirs[q] for q in ours if q in theirs}


SLIPS: list[tuple[Callable[[Rows, str, str, str], dict[str, float]], str]] = [
    (
        lambda rows, a, b, m: {q: -d for q, d in paired_expected(rows, a, b, m).items()},
        "the sign is reversed: the difference is a's measure minus b's",
    ),
    (
        lambda rows, a, b, m: {q: abs(d) for q, d in paired_expected(rows, a, b, m).items()},
        "you took the size of each difference (abs): keep its sign, a's measure minus b's, so a "
        "question where a scores less shows as negative",
    ),
    (
        paired_by_position,
        "you paired the rows by position: they come in any order, so pair each question's "
        "a row with the same question's b row (key both by question id)",
    ),
    (
        paired_sorted_and_zipped,
        "you sorted each side by question id and zipped them: a question scored under one side "
        "only shifts every pair after it; key both sides by question id and keep the ids in both",
    ),
    (
        paired_missing_as_zero,
        "a question scored under one strategy only has no pair: leave it out, do not count the "
        "missing side as 0",
    ),
    (
        paired_any_strategy,
        "the rows hold other strategies too: take b's side from the rows whose strategy is b",
    ),
]


def _rows(rng: random.Random) -> tuple[Rows, str, str, str]:
    """Rows of three strategies over a few questions, shuffled, one question left unpaired."""
    a, b, other = rng.sample(["path", "none", "title only", "window", "room"], 3)
    measure = rng.choice(["tokens_to_model", "complete"])
    numbers = rng.sample(range(40), rng.randint(4, 8))
    ids, lonely_id = [f"q{n:02d}" for n in numbers[1:]], f"q{numbers[0]:02d}"
    rows = []
    for strategy in (a, b, other):
        for q in ids:
            value = rng.randint(0, 1) if measure == "complete" else rng.randint(80, 240)
            rows.append({"question": q, "strategy": strategy, measure: value, "k": 3})
    lonely = rng.choice([a, b])  # a question scored under one side only
    value = 1 if measure == "complete" else 150
    rows.append({"question": lonely_id, "strategy": lonely, measure: value, "k": 3})
    rng.shuffle(rows)
    return rows, a, b, measure


FIXED: list[tuple[Rows, str, str, str]] = [
    (  # b's rows in another order than a's, a third strategy, a question with a's side only
        [
            {"question": "m01", "strategy": "path", "tokens_to_model": 210, "k": 3},
            {"question": "m02", "strategy": "path", "tokens_to_model": 190, "k": 3},
            {"question": "m02", "strategy": "none", "tokens_to_model": 200, "k": 3},
            {"question": "m01", "strategy": "none", "tokens_to_model": 180, "k": 3},
            {"question": "m01", "strategy": "title only", "tokens_to_model": 120, "k": 3},
            {"question": "m00", "strategy": "path", "tokens_to_model": 170, "k": 3},
        ],
        "path",
        "none",
        "tokens_to_model",
    ),
]


def _why(got: Any, case: tuple[Rows, str, str, str]) -> str:
    if not isinstance(got, dict):
        return f"return a dict, question id -> difference, not a {type(got).__name__}"
    for slip, why in SLIPS:
        if got == slip(*case):
            return why
    return "not the differences expected"


def check_paired_differences(fn: Callable) -> int:
    rng, cases = random.Random(6), list(FIXED)
    cases += [_rows(rng) for _ in range(30)]
    refusal = (
        "your function calls {name}, which compares scores already lined up; the exercise is "
        "the lining up: key each side's rows by question id and subtract"
    )
    for case in cases:
        rows, a, b, measure = case
        expected = paired_expected(rows, a, b, measure)
        with calls_to(compare, paired) as called:  # a side check with compare is no slip
            try:
                got = fn([dict(r) for r in rows], a, b, measure)
            except Exception as error:
                if called:
                    raise NotYet(refusal.replace("{name}", called[0])) from error
                if isinstance(error, KeyError):
                    raise NotYet(
                        f"your function raised KeyError: {error}; the rows hold the keys "
                        f"{sorted({key for r in rows for key in r})}, every row of one k (3), "
                        "so read only 'question', 'strategy' and the measure"
                    ) from error
                raise
        if got != expected and called:
            raise NotYet(refusal.replace("{name}", called[0]))
        if got != expected:
            raise NotYet(
                f"{_why(got, case)}. Case: {len(rows)} rows, a={a!r}, b={b!r}, "
                f"measure {measure!r}: expected {short(expected)}, got {short(got)}"
            )
    return len(cases)
