"""Exercise 03g.1's and 03d.1's checks: the children alone in the section's room, and the block
that holds an answer when blocks overlap.

03g.1 asks for companion 03g's feeding baseline written out: `children_in_room(ranked, parent_of,
sections, starts)` returns the best child's section and the children, best first, joined by
newlines and cut where the section's tokens run out (`starts(text)` gives where each token
begins, as `cl100k_token_starts` does). The check passes its own token rule, so a function that
calls cl100k is refused, and names the slips: the section of another child, the budget in
characters or in words, whole children only (or the overflowing child kept whole), another join,
a cut one token off, no cut, only the section's own children, each child's tokens counted apart
(the joining newlines left out).

03d.1 asks for the edge check of 03d's section 2 when blocks overlap: `holding_block(excerpts,
size, step)`, the index of the first block of `size` characters (block i starts at i * step)
that holds every excerpt, or None. The slips named: blocks every `size` characters (no overlap),
the end read as inside, each excerpt alone, the first excerpt only, the excerpts taken in their
listed order, the answer's length alone, the last block instead of the first, a character offset
instead of an index.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.tokens.counters import cl100k_token_starts

# --- 03g.1: the children alone, in the room of the section small-to-big hands over ----------------

Ranked = list[tuple[str, str]]
Room = tuple[Ranked, dict[str, str], dict[str, str]]


def _starts(text: str) -> list[int]:
    """The check's own tokens: a run of word characters, one punctuation mark, or a newline (as
    in cl100k, the newline that joins two children can cost a token of the room)."""
    return [m.start() for m in re.finditer(r"\w+|[^\w\s]|\n", text)]


def _cut(text: str, budget: int, starts: Callable[[str], list[int]] = _starts) -> str:
    at = starts(text)
    return text[: at[budget]] if 0 <= budget < len(at) else text


def _room(
    ranked: Ranked,
    parent_of: dict,
    sections: dict,
    pick: int = 0,
    join: str = "\n",
    budget_of: Callable[[str], int] = lambda s: len(_starts(s)),
    shift: int = 0,
    whole: str = "",
    apart: bool = False,
) -> tuple[str, str]:
    """The right answer (defaults) and, with one argument changed, each slip's."""
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[pick][0]]]
    budget = budget_of(section) + shift
    texts = [text for _, text in ranked]
    if whole:  # whole children: stop before the overflowing one, or keep it whole
        kept: list[str] = []
        for text in texts:
            if len(_starts(join.join([*kept, text]))) > budget:
                if whole == "after":
                    kept.append(text)
                break
            kept.append(text)
        return section, join.join(kept)
    if apart:  # each child's tokens counted alone, the joining newlines left out
        used, kept = 0, []
        for text in texts:
            kept.append(_cut(text, budget - used))
            used += len(_starts(text))
            if used >= budget:
                break
        return section, join.join(kept)
    return section, _cut(join.join(texts), budget)


def _room_slips(ranked: Ranked, parent_of: dict, sections: dict) -> dict[str, tuple[str, str]]:
    args = (ranked, parent_of, sections)
    top = parent_of[ranked[0][0]] if ranked else None
    own = [(i, t) for i, t in ranked if parent_of[i] == top]
    section, joined = _room(*args)[0], "\n".join(t for _, t in ranked)
    return {
        "the section is the best child's, the first of `ranked`": _room(*args, pick=-1),
        "the room is the section's tokens, counted with `starts`, not its characters": _room(
            *args, budget_of=len
        ),
        "the room is the section's tokens (`len(starts(section))`), not its words": _room(
            *args, budget_of=lambda s: len(s.split())
        ),
        "the children are cut where the tokens run out, inside a child: you stopped before the "
        "child that overflows": _room(*args, whole="before"),
        "the children are cut where the tokens run out: you kept the overflowing child "
        "whole": _room(*args, whole="after"),
        "the room is the section's tokens, counted with `starts`: you cut the children's text "
        "at the section's character count": (section, joined[: len(section)]),
        "the room is the section's tokens, counted with `starts`: you kept as many words as the "
        "section has": (section, " ".join(joined.split()[: len(section.split())])),
        "join the children with a newline": _room(*args, join=" "),
        "join the children with a newline, not with nothing": _room(*args, join=""),
        "count the tokens of the joined text: the newline between two children can be a token "
        "too, so counting each child apart overfills the room": _room(*args, apart=True),
        "you cut one token short: keep the text up to the start of token number len(starts("
        "section)), text[:starts(text)[budget]]": _room(*args, shift=-1),
        "you cut one token long: the room is len(starts(section)) tokens": _room(*args, shift=1),
        "cut the children to the section's tokens": (section, joined),
        "`ranked` is already best first: keep its order, do not sort it": _room(
            sorted(ranked), parent_of, sections
        ),
        "the baseline takes the best children from anywhere, not only the section's own": _room(
            own, parent_of, sections
        )
        if own
        else ("", ""),
    }


WORDS = "rate limit tokyo daily trip visa fee cap lodging receipt book flight days report".split()


def _text(rng: random.Random, n: int) -> str:
    marks = [",", ".", ":", "%", "(", ")"]
    return " ".join(
        rng.choice(WORDS) if rng.random() < 0.8 else rng.choice(marks) for _ in range(n)
    )


def _room_cases() -> list[Room]:
    """Hand-picked cases (nothing found, children shorter than the room, a cut at a child's
    end), then random ones from a fixed seed."""
    sections = {"s1": "Per diem: Tokyo 90, London 95.", "s2": "Book after the visa."}
    parent_of = {"a": "s1", "b": "s2", "c": "s2", "d": "s1"}
    cases: list[Room] = [
        ([], parent_of, sections),
        ([("a", "Tokyo 90")], parent_of, sections),
        ([("b", "visa first"), ("a", "Tokyo , 90"), ("c", "book")], parent_of, sections),
        (
            [("d", "London 95 ."), ("b", "Book after"), ("c", "the visa is issued")],
            parent_of,
            sections,
        ),
    ]
    rng = random.Random(31)
    for _ in range(40):
        sections = {f"s{i}": _text(rng, rng.randint(1, 14)) for i in range(rng.randint(1, 4))}
        ids = [f"c{i}" for i in range(rng.randint(1, 9))]
        parent_of = {i: rng.choice(sorted(sections)) for i in ids}
        ranked = [
            (i, _text(rng, rng.randint(1, 7))) for i in rng.sample(ids, rng.randint(1, len(ids)))
        ]
        cases.append((ranked, parent_of, sections))
    return cases


def _as_pair(got: Any) -> tuple[str, str] | None:
    try:
        section, handed = got
    except (TypeError, ValueError):
        return None
    if not isinstance(section, str) or not isinstance(handed, str):
        return None
    return section, handed.rstrip()  # a cut keeps the blank before the next token: not required


def _shape_slips(cases: list[Room], got: list) -> list[str]:
    """Slips named by the shape of every answer, however written: whole children only, a room
    counted in words, a cut one token short wherever it differs (edge guards written any way)."""
    pairs = [_as_pair(g) for g in got]
    if any(p is None for p in pairs):
        return []
    wholes, words, short_by_one = [], [], []
    for case, (section, handed) in zip(cases, pairs, strict=True):  # type: ignore[misc]
        texts, n, right = [t for _, t in case[0]], len(section.split()), _room(*case)[1].rstrip()
        short_by_one.append(handed in {right, _cut(right, len(_starts(right)) - 1).rstrip()})
        wholes.append(handed in {"\n".join(texts[:j]).rstrip() for j in range(len(texts) + 1)})
        joined = "\n".join(texts)  # words split at any white space, or at spaces only
        words.append(
            handed.split() == joined.split()[:n]
            or handed == " ".join(joined.split(" ")[:n]).rstrip()
        )
    return [
        why
        for why, fits in [
            (
                "the children are cut where the room's tokens run out, inside a child if need "
                "be: you kept whole children only",
                all(wholes),
            ),
            (
                "the room is the section's tokens, len(starts(section)), not its words: you "
                "kept as many words as the section has",
                all(words),
            ),
            (
                "you cut one token short: keep the text up to the start of token number "
                "len(starts(section)), text[:starts(text)[budget]]",
                all(short_by_one),
            ),
        ]
        if fits
    ]


def check_children_in_room(fn: Callable) -> int:
    cases = _room_cases()
    got = []
    for ranked, parent_of, sections in cases:
        try:
            got.append(
                run_without(
                    fn,
                    (list(ranked), dict(parent_of), dict(sections), _starts),
                    cl100k_token_starts,
                    "your function calls cl100k_token_starts: count tokens with the `starts` it "
                    "is given (the check uses its own tokens)",
                )
            )
        except (IndexError, KeyError, StopIteration) as error:  # the empty case's usual slip
            if ranked:
                raise
            raise NotYet(
                f"with nothing ranked your function raised {type(error).__name__}: when `ranked` "
                'is empty there is no best child, so return ("", "")'
            ) from error
    for case, answer in zip(cases, got, strict=True):
        right = _as_pair(_room(*case))
        if _as_pair(answer) != right:
            named = [
                why
                for why in _room_slips(*case)
                if all(
                    _as_pair(g) == _as_pair(_room_slips(*c)[why])
                    for c, g in zip(cases, got, strict=True)
                )
            ] or _shape_slips(cases, got)
            raise NotYet(
                f"ranked {short(case[0], 70)}, parent_of {short(case[1], 50)}: expected "
                f"{short(right, 70)}, got {short(answer, 70)}: "
                + (
                    "; or ".join(named)
                    if named
                    else "return (the best child's section, the "
                    "children best first joined by newlines, cut at the section's token count)"
                )
            )
    return len(cases)


# --- 03d.1: the first overlapping block that holds every excerpt ---------------------------------

Excerpts = list[tuple[int, int]]


def _block(excerpts: Excerpts, size: int, step: int, last: bool = False) -> int | None:
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    fits = [i for i in range(lo // step + 1) if i * step <= lo and hi <= i * step + size]
    return (fits[-1] if last else fits[0]) if fits else None


class _AnyOf(tuple):
    """A slip written more than one plausible way: an answer matches if it is any of them."""


def _span_block(lo: int, hi: int, size: int, step: int) -> int | None:
    """The first block i with i * step <= lo and hi <= i * step + size, lo and hi taken as given."""
    return next(
        (i for i in range(lo // step + 1) if i * step <= lo and hi <= i * step + size), None
    )


def _floored(lo: int, hi: int, size: int, step: int) -> int | None:
    """The first block's index rounded down, (hi - size) // step, where it must round up."""
    i = max(0, (hi - size) // step)
    return i if i * step <= lo and hi <= i * step + size else None


def _unclamped(lo: int, hi: int, size: int, step: int) -> int | None:
    """The first block's index rounded up, -((size - hi) // step), with no clamp at 0."""
    i = -(-(hi - size) // step)
    return i if i * step <= lo and hi <= i * step + size else None


def _block_slips(excerpts: Excerpts, size: int, step: int) -> dict[str, Any]:
    lo, hi = min(a for a, _ in excerpts), max(b for _, b in excerpts)
    alone = [_block([e], size, step) for e in excerpts]
    right = _block(excerpts, size, step)
    listed = excerpts[0][0], excerpts[-1][1]
    return {
        "block i starts at i * step, not i * size: the blocks overlap": _block(
            excerpts, size, size
        ),
        "an excerpt's end is exclusive: one that ends at the block's end fits": _block(
            [(a, b + 1) for a, b in excerpts], size, step
        ),
        "one block must hold every excerpt together, not each excerpt in a block of its own": (
            _AnyOf((alone[0], min(alone))) if None not in alone else None  # type: ignore[type-var]
        ),
        "one block must hold every excerpt, not only the first": _block(excerpts[:1], size, step),
        "the excerpts are not in order: take the smallest start and the largest end": _AnyOf(
            (
                _span_block(*listed, size, step),
                _block([listed], size, step) if listed[0] < listed[1] else None,
            )
        ),
        "the first block that reaches the answer's end is (end - size) / step rounded up, not "
        "down: rounded down, the block ends before the answer does": _AnyOf(
            (_floored(lo, hi, size, step), max(0, (hi - size) // step))
        ),
        "an answer that ends within the first block gives a negative (end - size) / step: block 0 "
        "is the first, clamp at 0": _AnyOf(
            (_unclamped(lo, hi, size, step), -(-(hi - size) // step))
        ),
        "the smallest start and the largest end bound what one block must hold, not the largest "
        "start and the smallest end": _span_block(
            max(a for a, _ in excerpts), min(b for _, b in excerpts), size, step
        ),
        "an answer shorter than a block can still cross every block's edge: check a block's "
        "start and end": lo // step if hi - lo <= size else None,
        "the first block that holds it, not the last": _block(excerpts, size, step, last=True),
        "return the block's index, not its first character": None
        if right is None
        else right * step,
    }


def _block_cases() -> list[tuple[Excerpts, int, int]]:
    """Hand-picked (an end on an edge, two excerpts in two blocks, out of order, no overlap),
    then random ones from a fixed seed."""
    cases = [
        ([(10, 40)], 40, 20),
        ([(30, 50)], 40, 20),
        ([(5, 15), (45, 55)], 40, 20),
        ([(70, 80), (50, 60)], 40, 20),
        ([(35, 45)], 40, 40),
        ([(0, 40)], 40, 40),
        ([(25, 60)], 40, 10),
        ([(10, 70)], 40, 20),
    ]
    rng = random.Random(303)
    for _ in range(60):
        size = rng.choice([20, 30, 40, 50])
        step = rng.choice([size, size // 2, size // 5, size * 3 // 4])
        excerpts = []
        for _ in range(rng.randint(1, 3)):
            a = rng.randint(0, 150)
            excerpts.append((a, a + rng.randint(1, size)))
        cases.append((excerpts, size, step))
    return cases


def _matches(answer: Any, slip: Any) -> bool:
    return answer in slip if isinstance(slip, _AnyOf) else answer == slip


def check_holding_block(fn: Callable) -> int:
    cases = _block_cases()
    got = [fn(list(e), size, step) for e, size, step in cases]
    for case, answer in zip(cases, got, strict=True):
        right = _block(*case)
        same = (
            answer is None
            if right is None
            else (answer is not None and answer == right and not isinstance(answer, bool))
        )
        if not same:
            named = [
                why
                for why in _block_slips(*case)
                if all(_matches(g, _block_slips(*c)[why]) for c, g in zip(cases, got, strict=True))
            ]
            raise NotYet(
                f"excerpts {case[0]}, size {case[1]}, step {case[2]}: expected {right}, got "
                f"{short(answer)}: "
                + (
                    "; or ".join(named)
                    if named
                    else "block i covers "
                    "[i * step, i * step + size); return the first i whose block holds every "
                    "excerpt, or None"
                )
            )
    return len(cases)


CHECKS_ROOM_EDGES: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03g.1": (
        "children_in_room(ranked, parent_of, sections, starts) -> (section, handed)",
        check_children_in_room,
    ),
    "03d.1": ("holding_block(excerpts, size, step) -> block index or None", check_holding_block),
}
