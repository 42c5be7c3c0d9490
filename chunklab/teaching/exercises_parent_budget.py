"""Exercise 03.2's check: parents within a token budget. Fixed cases come first, built so each
plausible wrong answer fails one (a parent skipped to fit a smaller one, a budget filled exactly, a
repeat, the budget read as a number of parents, each parent tested alone), then random ones; a
refusal names what is wrong, not only where. Kept apart from `exercises_parents_windows` (03b.2,
03c.2) so each module stays small."""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short

# --- 03.2: parents within a token budget ---------------------------------------------------------


def parents_expected(
    ranked: list[str], parent_of: dict[str, str], tokens: dict[str, int], budget: int
) -> list[str]:
    """The answer: parents in rank order, each once, stopping before the first that overflows."""
    chosen: list[str] = []
    spent = 0
    for child in ranked:
        parent = parent_of[child]
        if parent in chosen:
            continue
        if spent + tokens[parent] > budget:
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def _why_parents(got: list, expected: list, case: tuple, slips: list[str]) -> str:
    ranked, parent_of, tokens, budget = case  # children ranked, child -> parent, parent -> tokens
    if len(set(got)) < len(got):
        return "a parent appears twice: hand each parent over once, at its best child's rank"
    if any(p not in tokens for p in got):
        return "return parent ids (parent_of[child]), not child ids"
    if slips:  # the slips the learner's lists match on every fixed case, named before symptoms
        return "; or ".join(slips)
    if sum(tokens[p] for p in got) > budget:
        return "the parents you return exceed the budget"
    if got[: len(expected)] == expected and len(got) > len(expected):
        return (
            "you skipped a parent that did not fit and took a later one: stop at the first "
            "parent that does not fit (rank order is the order of relevance)"
        )
    if got == expected[:-1] and sum(tokens[p] for p in expected) == budget:
        return "a parent that fills the budget exactly still fits (total <= budget)"
    if sorted(got) == sorted(expected):
        return "the right parents in the wrong order (a set loses it): keep their best child's rank"
    rank = list(dict.fromkeys(parent_of[c] for c in ranked))
    began_elsewhere = bool(got and expected) and got[0] != expected[0]
    if set(got) <= set(rank) and (began_elsewhere or got != sorted(got, key=rank.index)):
        return "your parents are not walked in rank order (a set loses it): dedupe in rank order"
    return "not the parents expected"


def _budget_before_repeat(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: tests the budget before skipping a repeat, so a repeat can stop the loop."""
    chosen: list[str] = []
    spent = 0
    for child in ranked:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:
            break
        if parent not in chosen:
            chosen.append(parent)
            spent += tokens[parent]
    return chosen


def _repeat_counted(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: skips a repeat in the answer but adds its tokens to the total again."""
    chosen: list[str] = []
    spent = 0
    for child in ranked:
        parent = parent_of[child]
        if spent + tokens[parent] > budget:
            break
        spent += tokens[parent]
        if parent not in chosen:
            chosen.append(parent)
    return chosen


def _stop_at_repeat(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: ends the loop at the first repeated parent instead of skipping it."""
    chosen: list[str] = []
    spent = 0
    for child in ranked:
        parent = parent_of[child]
        if parent in chosen or spent + tokens[parent] > budget:
            break
        chosen.append(parent)
        spent += tokens[parent]
    return chosen


def _by_size(largest: bool) -> Callable:
    """Wrong: fills the budget with the smallest (or largest) parents first, dropping rank order."""

    def slip(ranked, parent_of, tokens, budget) -> list[str]:
        unique = dict.fromkeys(parent_of[c] for c in ranked)
        by_size = sorted(unique, key=lambda p: tokens[p], reverse=largest)
        return parents_expected(by_size, {p: p for p in by_size}, tokens, budget)

    return slip


def _children_sorted_by_id(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: sorts the child ids first, so the ids' alphabet replaces the rank order."""
    return parents_expected(sorted(ranked), parent_of, tokens, budget)


def _budget_as_count(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: reads the budget as a number of parents, not of tokens."""
    return list(dict.fromkeys(parent_of[c] for c in ranked))[:budget]


def _each_alone(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: tests each parent's own tokens against the budget, never the running total."""
    chosen: list[str] = []
    for parent in dict.fromkeys(parent_of[c] for c in ranked):
        if tokens[parent] > budget:
            break
        chosen.append(parent)
    return chosen


def _worst_first(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: walks the ranking from its end, as if the list were worst first."""
    return parents_expected(ranked[::-1], parent_of, tokens, budget)


PARENT_SLIPS = [  # (a plausible wrong method, the slip it makes, in words)
    (
        _budget_as_count,
        "budget is a number of tokens, not of parents: add each parent's tokens to a total",
    ),
    (
        _each_alone,
        "you tested each parent alone against the budget: add its tokens to those already "
        "handed over, and stop when the total would pass the budget",
    ),
    (
        _children_sorted_by_id,
        "you sorted the child ids: ranked_children is already best first, and an id's place "
        "in the alphabet says nothing about its rank",
    ),
    (
        _worst_first,
        "you walked the ranking from its end: ranked_children comes best first, so start at "
        "ranked_children[0]",
    ),
    (
        _budget_before_repeat,
        "a parent already handed over costs nothing: skip repeats before testing the budget",
    ),
    (
        _repeat_counted,
        "you counted a repeated parent's tokens again: a parent handed over once costs once",
    ),
    (
        _stop_at_repeat,
        "you stopped at the first repeated parent: a repeat is skipped (it is already handed "
        "over), and the loop goes on to the next child",
    ),
    *[
        (
            _by_size(largest),
            f"you took the {word} parents first: keep the rank order of their best child, and "
            "stop at the first that does not fit",
        )
        for largest, word in [(False, "smallest"), (True, "largest")]
    ],
]


PARENT_CASES = [  # (ranked children, child -> parent, parent -> tokens, budget)
    (["a", "b", "c"], {"a": "P", "b": "Q", "c": "R"}, {"P": 50, "Q": 90, "R": 20}, 100),
    (["a", "b"], {"a": "P", "b": "Q"}, {"P": 60, "Q": 40}, 100),
    (["a", "b", "c", "d"], {"a": "P", "b": "P", "c": "Q", "d": "P"}, {"P": 30, "Q": 30}, 100),
    (["a", "b"], {"a": "P", "b": "Q"}, {"P": 10, "Q": 10}, 0),
    ([], {}, {"P": 10}, 100),
    (["a", "b", "c"], {"a": "Q", "b": "P", "c": "Q"}, {"P": 10, "Q": 10}, 100),
    # the smaller parent ranks second: the rank order, not size, decides
    (["a", "b"], {"a": "P", "b": "Q"}, {"P": 70, "Q": 20}, 80),
    # a repeat's tokens counted again would stop before Q: P, P, Q within 100 is P and Q
    (["a", "b", "c"], {"a": "P", "b": "P", "c": "Q"}, {"P": 30, "Q": 50}, 100),
    # a repeat tested against the budget would stop the loop: P, P, Q within 100 is P and Q
    (["a", "b", "c"], {"a": "P", "b": "P", "c": "Q"}, {"P": 60, "Q": 30}, 100),
    # ids out of alphabetical order: the rank, not the id, decides (sorted ids would give Q, P, R)
    (["m", "c", "x"], {"m": "P", "c": "Q", "x": "R"}, {"P": 40, "Q": 30, "R": 50}, 90),
    # a budget of 1 token holds no parent (read as one parent, it would hold P)
    (["a", "b"], {"a": "P", "b": "Q"}, {"P": 10, "Q": 10}, 1),
]


def check_parents_within(fn: Callable) -> int:
    rng, cases = random.Random(3), []
    for _ in range(40):
        tokens = {f"p{k}": rng.randint(5, 120) for k in range(rng.randint(1, 6))}
        names = rng.sample(range(10, 100), rng.randint(1, 10))  # rank order is not the ids' order
        pairs = [(f"c{k}", rng.choice(list(tokens))) for k in names]
        budget = rng.choice([0, 50, 120, 200, 400])
        cases.append(([c for c, _ in pairs], dict(pairs), tokens, budget))
    for ranked, parent_of, tokens, budget in [*PARENT_CASES, *cases]:
        expected = parents_expected(ranked, parent_of, tokens, budget)
        got = list(fn(list(ranked), dict(parent_of), dict(tokens), budget))
        if got != expected:
            slips = consistent_slips(fn, PARENT_SLIPS, PARENT_CASES)
            why = _why_parents(got, expected, (ranked, parent_of, tokens, budget), slips)
            raise NotYet(
                f"{why}. Case: children {ranked} -> "
                f"parents {[parent_of[c] for c in ranked]}, tokens {tokens}, budget {budget}: "
                f"got {short(got)}"
            )
    return len(PARENT_CASES) + len(cases)
