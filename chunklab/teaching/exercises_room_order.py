"""Exercise 03g.1's check: the children alone in the section's room, handed over in the
document's order.

03g.1 extends companion 03g's feeding baseline: `children_in_room(ranked, parent_of, sections,
starts)` keeps what section 1 keeps (the children best first, joined by newlines, cut where the
best child's section's tokens run out; `starts(text)` gives where each token begins, as
`cl100k_token_starts` does), then hands the kept pieces over in the document's order, so that two
neighbours a small cut split sit side by side again. `ranked` holds `(position, text)` pairs, best
first. The check passes its own token rule, so a function that calls cl100k is refused, and names
the slips: the pieces left best first (section 1's cell pasted), in reverse order, sorted before
the cut, the section of another child, the budget in characters or in words, whole children only
(or the overflowing child kept whole), another join, a cut one token off, no cut, only the
section's own children, each child's tokens counted apart (the joining newlines left out).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.teaching.checking import NotYet, run_without, short
from chunklab.tokens.counters import cl100k_token_starts

Ranked = list[tuple[int, str]]
Room = tuple[Ranked, dict[int, str], dict[str, str]]


def _starts(text: str) -> list[int]:
    """The check's own tokens: a run of word characters, one punctuation mark, or a newline (as
    in cl100k, the newline that joins two children can cost a token of the room)."""
    return [m.start() for m in re.finditer(r"\w+|[^\w\s]|\n", text)]


def _cut(text: str, budget: int) -> str:
    at = _starts(text)
    return text[: at[budget]] if 0 <= budget < len(at) else text


def _kept(ranked: Ranked, budget: int, join: str, whole: str, apart: bool) -> list[tuple[int, str]]:
    """The pieces section 1 keeps, best first, each with its child's position (or a slip's)."""
    if whole:  # whole children: stop before the overflowing one, or keep it whole
        kept: Ranked = []
        for position, text in ranked:
            if len(_starts(join.join([t for _, t in kept] + [text]))) > budget:
                kept += [(position, text)] if whole == "after" else []
                break
            kept.append((position, text))
        return kept
    if apart:  # each child's tokens counted alone, the joining newlines left out
        used, kept = 0, []
        for position, text in ranked:
            kept.append((position, _cut(text, budget - used)))
            used += len(_starts(text))
            if used >= budget:
                break
        return kept
    cut, at, kept = _cut(join.join(t for _, t in ranked), budget), 0, []
    for position, text in ranked:
        if at >= len(cut):
            break
        kept.append((position, cut[at : at + len(text)]))
        at += len(text) + len(join)
    return [(p, t) for p, t in kept if t.strip()]


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
    order: str = "document",
) -> tuple[str, str]:
    """The right answer (defaults) and, with one argument changed, each slip's."""
    if not ranked:
        return "", ""
    section = sections[parent_of[ranked[pick][0]]]
    kept = _kept(ranked, budget_of(section) + shift, join, whole, apart)
    if order != "rank":
        kept = sorted(kept, key=lambda pair: pair[0], reverse=order == "reverse")
    return section, join.join(t for _, t in kept)


def _room_slips(ranked: Ranked, parent_of: dict, sections: dict) -> dict[str, list]:
    """Each slip's answer; a slip written more than one plausible way lists each."""
    args = (ranked, parent_of, sections)
    top = parent_of[ranked[0][0]] if ranked else None
    own = [(i, t) for i, t in ranked if parent_of[i] == top]
    section = _room(*args)[0]
    room = len(_starts(section))
    by_place = sorted(ranked)
    joined = "\n".join(t for _, t in sorted(_kept(ranked, 10**6, "\n", "", False)))
    return {
        "keep the children best first as section 1 does, then put the kept pieces in the "
        "document's order (sort by position): you handed them over best first": [
            _room(*args, order="rank")
        ],
        "the document's order is the smallest position first, not the largest": [
            _room(*args, order="reverse")
        ],
        "choose the children best first, then reorder them: sorting before the cut keeps the "
        "document's first children, not the best": [
            (section, _room(by_place, parent_of, sections, budget_of=lambda _: room)[1]),
            _room(by_place, parent_of, sections),
        ],
        "the section is the best child's, the first of `ranked`": [_room(*args, pick=-1)],
        "the room is the section's tokens, counted with `starts`, not its characters": [
            _room(*args, budget_of=len)
        ],
        "the room is the section's tokens (`len(starts(section))`), not its words": [
            _room(*args, budget_of=lambda s: len(s.split()))
        ],
        "the children are cut where the tokens run out, inside a child: you stopped before the "
        "child that overflows": [_room(*args, whole="before")],
        "the children are cut where the tokens run out: you kept the overflowing child whole": [
            _room(*args, whole="after")
        ],
        "join the children with a newline": [_room(*args, join=" ")],
        "join the children with a newline, not with nothing": [_room(*args, join="")],
        "count the tokens of the joined text: the newline between two children can be a token "
        "too, so counting each child apart overfills the room": [_room(*args, apart=True)],
        "you cut one token short: keep the text up to the start of token number len(starts("
        "section)), text[:starts(text)[budget]]": [_room(*args, shift=-1)],
        "you cut one token long: the room is len(starts(section)) tokens": [_room(*args, shift=1)],
        "cut the children to the section's tokens": [(section, joined)],
        "the baseline takes the best children from anywhere, not only the section's own": [
            _room(own, parent_of, sections) if own else ("", "")
        ],
    }


WORDS = "rate limit tokyo daily trip visa fee cap lodging receipt book flight days report".split()


def _text(rng: random.Random, n: int) -> str:
    marks = [",", ".", ":", "%", "(", ")"]
    return " ".join(
        rng.choice(WORDS) if rng.random() < 0.8 else rng.choice(marks) for _ in range(n)
    )


def _room_cases() -> list[Room]:
    """Hand-picked cases (nothing found, children shorter than the room, a cut at a child's
    end, neighbours ranked apart), then random ones from a fixed seed."""
    sections = {"s1": "Per diem: Tokyo 90, London 95.", "s2": "Book after the visa."}
    parent_of = {0: "s1", 1: "s1", 2: "s2", 3: "s2"}
    cases: list[Room] = [
        ([], parent_of, sections),
        ([(0, "Tokyo 90")], parent_of, sections),
        ([(2, "visa first"), (0, "Tokyo , 90"), (3, "book")], parent_of, sections),
        ([(1, "London 95 ."), (3, "the visa is issued"), (2, "Book after")], parent_of, sections),
        ([(3, "the visa"), (0, "Per diem :"), (1, "Tokyo 90 , London")], parent_of, sections),
    ]
    rng = random.Random(31)
    for _ in range(40):
        sections = {f"s{i}": _text(rng, rng.randint(1, 14)) for i in range(rng.randint(1, 4))}
        places = rng.sample(range(30), rng.randint(1, 9))
        parent_of = {i: rng.choice(sorted(sections)) for i in places}
        ranked = [
            (i, _text(rng, rng.randint(1, 7)))
            for i in rng.sample(places, rng.randint(1, len(places)))
        ]
        cases.append((ranked, parent_of, sections))
    return cases


def _as_pair(got: Any) -> tuple[str, str] | None:
    """(section, handed), each line of handed stripped at its end and empty lines dropped: a cut
    keeps the blank before the next token, which need not be kept."""
    try:
        section, handed = got
    except (TypeError, ValueError):
        return None
    if not isinstance(section, str) or not isinstance(handed, str):
        return None
    return section, "\n".join(line.rstrip() for line in handed.split("\n") if line.strip())


def _call(fn: Callable, case: Room) -> Any:
    ranked, parent_of, sections = case
    try:
        return run_without(
            fn,
            (list(ranked), dict(parent_of), dict(sections), _starts),
            cl100k_token_starts,
            "your function calls cl100k_token_starts: count tokens with the `starts` it is given "
            "(the check uses its own tokens)",
        )
    except (IndexError, KeyError, StopIteration) as error:  # the empty case's usual slip
        if ranked:
            raise
        raise NotYet(
            f"with nothing ranked your function raised {type(error).__name__}: when `ranked` is "
            'empty there is no best child, so return ("", "")'
        ) from error


def check_children_in_room(fn: Callable) -> int:
    cases = _room_cases()
    got = [_as_pair(_call(fn, case)) for case in cases]
    for case, answer in zip(cases, got, strict=True):
        right = _as_pair(_room(*case))
        if answer == right:
            continue
        slips = [_room_slips(*c) for c in cases]
        named = [
            why
            for why in slips[0]
            if all(
                g == right_c or g in [_as_pair(s) for s in slip[why]]
                for c, g, slip in zip(cases, got, slips, strict=True)
                for right_c in [_as_pair(_room(*c))]
            )
            and any(g != _as_pair(_room(*c)) for c, g in zip(cases, got, strict=True))
        ]
        raise NotYet(
            f"ranked {short(case[0], 70)}, parent_of {short(case[1], 50)}: expected "
            f"{short(right, 70)}, got {short(answer, 70)}: "
            + (
                "; or ".join(named)
                if named
                else "return (the best child's section, the pieces section 1 keeps, put in the "
                "document's order and joined by newlines)"
            )
        )
    return len(cases)


CHECKS_ROOM_ORDER: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "03g.1": (
        "children_in_room(ranked, parent_of, sections, starts) -> (section, handed)",
        check_children_in_room,
    ),
}
