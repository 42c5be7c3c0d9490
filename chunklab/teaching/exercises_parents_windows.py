"""The coding exercises of 03, 03b and 03c: parents within a budget, merged sentence windows, and
filter then rank. Fixed cases come first, built so each plausible wrong answer fails one (a parent
skipped to fit a smaller one, a budget filled exactly, a repeat, windows that only touch), then
random ones; a refusal names what is wrong, not only where. 03.2's lift is checked in
`exercises_parent_lift`, the answer exercises' wrong answers are in `answers_small_to_big`."""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short

# --- 03.3: parents within a token budget ---------------------------------------------------------


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
    if sum(tokens[p] for p in got) > budget:
        return "the parents you return exceed the budget"
    if got[: len(expected)] == expected and len(got) > len(expected):
        return (
            "you skipped a parent that did not fit and took a later one: stop at the first "
            "parent that does not fit (rank order is the order of relevance)"
        )
    if got == expected[:-1] and sum(tokens[p] for p in expected) == budget:
        return "a parent that fills the budget exactly still fits (total <= budget)"
    if slips:  # the slips the learner's lists match on every fixed case
        return "; or ".join(slips)
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


def _worst_first(ranked, parent_of, tokens, budget) -> list[str]:
    """Wrong: walks the ranking from its end, as if the list were worst first."""
    return parents_expected(ranked[::-1], parent_of, tokens, budget)


PARENT_SLIPS = [  # (a plausible wrong method, the slip it makes, in words)
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


# --- 03b.2: merging overlapping sentence windows -------------------------------------------------


def merged_expected(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The answer: (first, last) sentence ranges, both included, merged where they overlap or
    touch (last + 1 == next first), in document order."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _merged_without_max(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The slip that drops `max`: a window lying inside the range so far replaces its end."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], last)
        else:
            out.append((first, last))
    return out


def _merged_unsorted(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The slip that skips the sort: the answer's sweep over the windows in the order given."""
    out: list[tuple[int, int]] = []
    for first, last in windows:
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _merged_sweep(
    windows: list[tuple[int, int]], order: Callable, gap: int
) -> list[tuple[int, int]]:
    """The sweep with a slip: windows visited in `order`, merged when at most `gap` sentences
    lie between them (the answer: document order, gap 0)."""
    out: list[tuple[int, int]] = []
    for first, last in sorted(windows, key=order):
        if out and first <= out[-1][1] + 1 + gap:
            out[-1] = (min(out[-1][0], first), max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def _why_merged(got: list, expected: list, windows: list) -> str:
    flat = [s for a, b in got for s in range(a, b + 1)]
    want = {s for a, b in windows for s in range(a, b + 1)}
    if got == _merged_sweep(windows, order=lambda w: (w[1], w[0]), gap=0):
        return (
            "you swept the windows sorted by their last sentence: sort by first sentence before "
            "sweeping, or a window that starts early lands after one it overlaps"
        )
    if got in (_merged_unsorted(windows), _merged_sweep(windows, order=lambda w: 0, gap=0)):
        return (
            "the sentences covered changed: you swept the windows in the order given; sort the "
            "windows by their first sentence first (document order), so each meets its neighbour"
        )
    if got == _merged_sweep(windows, order=lambda w: w, gap=1):
        return (
            "the sentences covered changed: you merged across a gap of one sentence; (4, 4) and "
            "(6, 6) leave sentence 5 out, so don't merge them"
        )
    if got == _merged_without_max(windows):
        return (
            "the sentences covered changed: a window inside another cut the merged range short; "
            "keep the larger end, max(last, the new window's last)"
        )
    if set(flat) != want:
        return "the sentences covered changed: every sentence of every window, and no other"
    if len(flat) != len(set(flat)):
        return "a sentence is still in two ranges: merge windows that overlap"
    if got != sorted(got):
        return "return the ranges in document order"
    if len(got) > len(expected):
        return "merge windows that touch too (one ends at sentence 5, the next starts at 6)"
    return "not the ranges expected"


MERGE_CASES = [
    [(0, 3), (2, 5)],  # overlap
    [(4, 6), (0, 3)],  # touch, and out of order
    [(7, 9), (1, 4), (2, 3)],  # one inside another
    [(0, 2), (6, 8)],  # apart
    [(5, 8), (5, 8)],  # the same window twice
    [(0, 10), (12, 13), (5, 14)],  # sorted by last sentence, (12, 13) splits what overlaps
    [(4, 4), (6, 6)],  # one sentence between: not touching
    [],
]


def check_merged_windows(fn: Callable) -> int:
    rng, cases = random.Random(31), list(MERGE_CASES)
    for _ in range(40):
        centres = [rng.randint(0, 30) for _ in range(rng.randint(1, 6))]
        size = rng.randint(0, 3)
        cases.append([(max(0, c - size), c + size) for c in centres])
    for windows in cases:
        expected = merged_expected(windows)
        got = [tuple(w) for w in fn(list(windows))]
        if got != expected:
            raise NotYet(
                f"{_why_merged(got, expected, windows)}. Case: windows {windows}: got {short(got)}"
            )
    return len(cases)


# --- 03c.2: filter, then rank ---------------------------------------------------------------------


def filtered_expected(scores: dict[str, float], passes: set[str], k: int) -> list[str]:
    """The answer: the k best-scoring ids among those that pass the filter (ties by id)."""
    allowed = sorted((i for i in scores if i in passes), key=lambda i: (-scores[i], i))
    return allowed[:k]


def _why_filtered(got: list, scores: dict[str, float], passes: set[str], k: int) -> str:
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    ranked_first = ranked[:k]
    expected = filtered_expected(scores, passes, k)
    short_by = len(expected) - len(got)
    if short_by > 0 and got == [i for i in ranked[: 10 * k] if i in passes][:k]:
        return (
            "the passing chunk ranks below the first 10 × k: taking the top k, or fetching a few "
            "times k, before filtering misses it, in silence; filter first, then rank"
        )
    if got == [i for i in expected if scores[i] > 0] != expected:  # BM25 drops 0s; a filter not
        return "you dropped the passing chunks that score 0: passing, they still fill places"
    if got == [i for i in ranked_first if i in passes]:
        return (
            "you took the top k first and filtered after: a chunk that fails the filter then "
            "takes a place the best passing chunk should have; filter first, then rank"
        )
    if short_by > 0 and len(got) == k - 1 and got == expected[: len(got)]:
        return (
            f"you returned {len(got)} ids where k = {k} and {len(expected)} pass: cut to the "
            "first k ([:k], not [:k-1])"
        )
    if any(i not in passes for i in got):
        return "an id that fails the filter came back: keep only ids in `passes`"
    if short_by > 0:
        return (
            f"you returned {len(got)} ids where {len(expected)} of the passing ones fit in k = "
            f"{k}: return min(k, how many pass)"
        )
    if len(got) > k:
        return f"you returned {len(got)} ids, more than k = {k}: keep only the k best"
    if got == sorted(i for i in scores if i in passes)[:k]:
        return (
            "you sorted the passing ids by id alone: sort by score, best first, and let the id "
            "only break ties (sort by (-score, id))"
        )
    if [scores.get(i) for i in got] == [scores[i] for i in expected] and got != expected:
        return "ties: among equal scores the smaller id comes first (sort by (-score, id))"
    if sorted(got) == sorted(expected):
        return "the right ids in the wrong order: best score first (ties by id)"
    return "not the ids expected"


FILTER_CASES = [  # (scores, passes, k): the best chunks fail the filter, a passing one is lower
    ({"a": 2.0, "b": 1.0}, {"a", "b"}, 2),  # all pass: k ids come back
    ({"a": 3.0, "b": 2.0, "c": 1.0}, {"c"}, 1),
    ({"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.5}, {"b", "d"}, 2),
    ({"a": 1.0, "b": 1.0}, {"a", "b"}, 1),
    ({"a": 1.0}, set(), 3),
    ({"b": 1.0, "a": 1.0}, {"a", "b"}, 1),  # a tie in reverse insertion order: "a" first
    # 20 failing chunks above the only passing one: over-fetching a few times k misses it
    ({**{f"f{n:02d}": float(30 - n) for n in range(20)}, "p": 1.0}, {"p"}, 1),
    ({f"t{n}": 1.0 for n in range(8)}, {f"t{n}" for n in range(8)}, 3),  # all tied: ids decide
]


class _LargestFirst(set):
    """A set that iterates its ids largest first, the same in every process: a solution that
    walks `passes` and sorts by score alone then fails every time, not under some hash seeds."""

    def __iter__(self):
        return iter(sorted(set.__iter__(self), reverse=True))


def check_filtered_top_k(fn: Callable) -> int:
    rng, cases = random.Random(5), []
    for _ in range(40):
        ids = [f"c{n}" for n in range(rng.randint(0, 8))]
        rng.shuffle(ids)  # insertion order is not id order: a stable sort by score alone fails
        scores = {i: float(rng.randint(0, 9)) for i in ids}
        passes = {i for i in scores if rng.random() < 0.4}
        cases.append((scores, passes, rng.randint(1, 4)))
    for scores, passes, k in [*FILTER_CASES, *cases]:
        expected = filtered_expected(scores, passes, k)
        got = list(fn(dict(scores), _LargestFirst(passes), k))
        if got != expected:
            raise NotYet(
                f"{_why_filtered(got, scores, passes, k)}. Case: scores {scores}, passes "
                f"{sorted(passes)}, k={k}: expected {expected}, got {short(got)}"
            )
    return len(FILTER_CASES) + len(cases)
