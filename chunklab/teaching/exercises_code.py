"""The exercises of notebook 11 (chunking code) and its companions 11b and 11c (code search).

11.1 asks for `merge_siblings(sizes, budget)`: cAST's merge step. Sibling units, in order, with
their sizes (non-white-space characters, which add up); adjacent units are grouped greedily left
to right while the group's size stays within the budget; a unit over the budget alone is a group
of its own (never dropped, never joined). The answer is a list of groups of indices.

11.2 asks for `functions_cut(functions, chunks)`: how many function spans no single chunk holds
whole, the count the notebook prints per splitter.

11c.1 (companion 11c's family read as one) is checked in `exercises_code_family`, 11b.1 (companion
11b's split lines) in `exercises_split_lines`.

Each check runs the learner's function on cases it has not seen (hand-picked edges, then random
ones from a fixed seed) and, on a miss, names the slip a learner is likely to have made: a strict
`<` where the budget allows equality, groups that are not adjacent siblings in order, groups made
from the right, sizes returned instead of indices, a unit over the budget dropped or joined, an
empty group, 1-based indices, the last group left open, a function counted once per cut rather than
once, the functions held whole counted instead of those cut, a share instead of a count, the cut
functions instead of their count, one end tested only, and a call to the library's own merge
(`repack`) or count (`cut_definitions`, `answer_inside`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from chunklab.chunkers.structural import repack
from chunklab.teaching.answers import Form
from chunklab.teaching.checking import Cases, NotYet, run_without, short
from chunklab.teaching.code_search import cut_definitions
from chunklab.teaching.excerpt_inside import answer_inside
from chunklab.teaching.exercises_code_family import CHECKS_FAMILY
from chunklab.teaching.exercises_split_lines import CHECKS_SPLIT_LINES


def merged(sizes: Sequence[int], budget: int, most: int | None = None) -> list[list[int]]:
    """The expected answer of 11.1: greedy, left to right, `<=` budget; an oversized unit alone.
    `most` caps a group's siblings: None for the answer, 2 for the slip of closing every group at
    two."""
    groups: list[list[int]] = []
    total = 0
    for i, size in enumerate(sizes):
        if groups and total + size <= budget and (most is None or len(groups[-1]) < most):
            groups[-1].append(i)
            total += size
        else:
            groups.append([i])
            total = size
    return groups


def _merge_slip(sizes: list[int], budget: int, got: object, fn: Callable | None = None) -> str:
    """Why `got` is wrong, in the words of the likely slip (`fn`, when given, is run on other
    cases so that a hint is named only when the slip explains every answer, not one)."""
    if fn is not None and all(fn([5, 5, 9], 10) == fn(list(s), b) for s, b in _merge_cases()[:4]):
        return (
            "the answer must depend on sizes and budget: the prompt's example is one case of many"
        )
    if fn is not None and all(
        fn(list(s), b) == [list(range(i, min(i + 2, len(s)))) for i in range(0, len(s), 2)]
        for s, b in _merge_cases()[:4]
    ):
        return "the budget decides where a group ends, not a fixed count of siblings per group"
    if not isinstance(got, list) or not all(isinstance(g, list) for g in got):
        return "return a list of groups, each a list of indices"
    if any(not g for g in got):
        return "every group holds at least one index: start with groups = [] and open a group [i]"
    if got == [[sizes[i] for i in g] for g in merged(sizes, budget)] != merged(sizes, budget):
        return "those are the units' sizes: return each group as the list of its units' indices"
    backward = _merged_from_the_right(sizes, budget)
    if got in (
        backward,
        [sorted(g) for g in backward],
        [g[::-1] for g in backward[::-1]],
    ):
        return "you grouped from the right: merge left to right, from the first sibling"
    expected = merged(sizes, budget)
    if expected and got == [[i + 1 for i in g] for g in expected]:
        return "indices count from 0, as in Python: the first unit is index 0, not 1"
    if expected and got == expected[:-1]:
        return "the last group is left open: append it once the loop is over"
    flat = [i for g in got for i in g]
    if sorted(flat) != list(range(len(sizes))):
        over = [i for i, s in enumerate(sizes) if s > budget]
        if any(i not in flat for i in over):
            return "a unit over the budget is still code: a group of its own, never dropped"
        return "every unit must be in exactly one group"
    if flat != list(range(len(sizes))) or any(g != list(range(g[0], g[-1] + 1)) for g in got):
        return "merge only adjacent siblings, in their order: a chunk is a stretch of the file"
    for g in got:
        if len(g) > 1 and any(sizes[i] > budget for i in g):
            return (
                "a unit over the budget goes alone: joining it to a neighbour makes it bigger still"
            )
    if got == _merged_testing_before(sizes, budget):
        return (
            "test the total after adding the unit: the group with the new unit in it must stay "
            "within the budget"
        )
    if fn is not None and all(
        _as_lists(fn(list(s), b)) == merged(s, b, most=2) for s, b in _merge_cases()
    ):
        return "a group may hold more than two siblings: keep adding while the total fits"
    if got == _merged_strict(sizes, budget):
        return "a group may fill the budget exactly: the test is `<=`, not `<`"
    return "merge greedily: add the next sibling while the group stays within the budget"


def _merged_strict(sizes: Sequence[int], budget: int) -> list[list[int]]:
    """The slip of a strict `<`: a group that would fill the budget exactly is closed instead."""
    strict: list[list[int]] = []
    for i, size in enumerate(sizes):
        if strict and sum(sizes[j] for j in strict[-1]) + size < budget:
            strict[-1].append(i)
        else:
            strict.append([i])
    return strict


def _merged_testing_before(sizes: Sequence[int], budget: int) -> list[list[int]]:
    """The slip of testing the group's total before adding the next unit, so a group can end
    over the budget."""
    groups: list[list[int]] = []
    for i in range(len(sizes)):
        if groups and sum(sizes[j] for j in groups[-1]) <= budget:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _merged_from_the_right(sizes: Sequence[int], budget: int) -> list[list[int]]:
    """The slip of grouping greedily from the last sibling: groups in file order, each ascending."""
    groups = merged(sizes[::-1], budget)
    last = len(sizes) - 1
    return [sorted(last - i for i in g) for g in groups[::-1]]


def _merge_cases() -> list[tuple[list[int], int]]:
    cases = [
        ([60, 60], 100),  # each fits, together they do not: test the total after adding
        ([30, 30, 40], 100),  # fills the budget exactly
        ([120, 10, 10], 100),  # an oversized unit first
        ([10, 150, 10], 100),  # ... in the middle
        ([120, 0, 30], 100),  # an empty unit after an oversized one starts a group: 120 + 0 > 100
        ([60, 50, 40, 10], 100),  # greedy, not best fit
        ([], 50),
    ]
    rng = np.random.default_rng(111)
    for _ in range(60):
        budget = int(rng.integers(20, 120))
        cases.append(
            ([int(s) for s in rng.integers(1, budget * 3 // 2, rng.integers(1, 12))], budget)
        )
    return cases


def _as_lists(got: object) -> object:
    """Groups as lists: a group given as a tuple of indices is the same answer."""
    if isinstance(got, list | tuple) and all(isinstance(g, list | tuple) for g in got):
        return [list(g) for g in got]
    return got


def check_merge_siblings(fn: Callable) -> int:
    cases = 0
    for sizes, budget in _merge_cases():
        expected = merged(sizes, budget)
        got = _as_lists(
            run_without(
                fn,
                (list(sizes), budget),
                repack,
                "your function calls chunklab.chunkers.structural.repack: the exercise asks you "
                "to write the merge yourself",
            )
        )
        if got != expected:
            raise NotYet(
                f"sizes {sizes}, budget {budget}: expected {expected}, got {short(got)} "
                f"({_merge_slip(sizes, budget, got, fn)})"
            )
        cases += 1
    return cases


def _cut_cases() -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    cases = [
        ([(0, 10), (12, 30)], [(0, 10), (12, 30)]),  # each function exactly one chunk
        ([(0, 40)], [(0, 10), (10, 20), (20, 40)]),  # one function in three pieces
        ([(5, 15), (20, 25)], [(0, 18), (18, 30)]),  # inside a bigger chunk
        ([(0, 10)], [(0, 9), (9, 30)]),
        ([(0, 20)], [(5, 30)]),  # one chunk meets it, and holds only its end
        ([(0, 20)], [(0, 10), (25, 30)]),  # a gap between chunks: no chunk starts inside it
        ([(10, 20)], [(0, 5), (25, 30)]),  # wholly in a gap: no chunk touches it
    ]
    rng = np.random.default_rng(112)
    for _ in range(60):
        length = int(rng.integers(30, 300))
        bounds = sorted({0, length, *(int(b) for b in rng.integers(1, length, rng.integers(1, 8)))})
        chunks = list(zip(bounds, bounds[1:], strict=False))
        functions = []
        for _ in range(int(rng.integers(1, 6))):
            a = int(rng.integers(0, length - 2))
            functions.append((a, int(rng.integers(a + 1, min(length, a + 80) + 1))))
        cases.append((functions, chunks))
    return cases


def _count_without_the_library(fn: Callable, functions: list, chunks: list) -> object:
    """The learner's count, refused when it calls a library function that does the counting:
    `cut_definitions` (this notebook's) or `answer_inside` (companion 03b's)."""
    return run_without(
        fn,
        (list(functions), list(chunks)),
        [cut_definitions, answer_inside],
        "your function calls {name}: the exercise asks you to write the count yourself",
    )


def _one_end_counts(functions: list, chunks: list) -> tuple[int, int]:
    """The counts of the slip of testing one end only: the start inside a chunk, or the end."""
    return (
        sum(1 for a, b in functions if not any(s <= a < e for s, e in chunks)),
        sum(1 for a, b in functions if not any(s < b <= e for s, e in chunks)),
    )


def check_functions_cut(fn: Callable) -> int:
    cases = 0
    for functions, chunks in _cut_cases():
        expected = len(cut_definitions(functions, chunks))
        got = _count_without_the_library(fn, functions, chunks)
        if got != expected:
            pieces = [sum(1 for s, e in chunks if s < b and a < e) for a, b in functions]
            starts = sum(1 for a, b in functions for s, _ in chunks if a < s < b)
            meets_several = sum(1 for p in pieces if p > 1)
            starts_inside = sum(1 for a, b in functions if any(a < s < b for s, _ in chunks))
            untouched = sum(1 for a, b in functions if not any(s < b and a < e for s, e in chunks))
            if untouched and got == expected - untouched:
                slip = "a function no chunk touches is not held whole either"
            elif functions and got == expected / len(functions):
                slip = "that is the share of functions cut: return how many, a count"
            elif all(
                fn(list(f), list(c)) == len(f) - len(cut_definitions(f, c))
                for f, c in _cut_cases()[:6]
            ):
                slip = "that counts the functions held whole: the exercise asks how many are not"
            elif got == starts_inside != expected and got != meets_several:
                slip = "a chunk starting inside is one way to cut a function; a gap is another"
            elif got == meets_several != expected and got != starts_inside:
                slip = "meeting one chunk is not being held whole: that chunk must contain it"
            elif got == meets_several == starts_inside:
                slip = (
                    "a chunk starting inside is one way to cut a function; a gap is another: "
                    "whole means one chunk contains it"
                )
            elif got == sum(p for p in pieces if p > 1) or got == starts:
                slip = "count functions, not pieces or cuts: a function in three pieces is one"
            elif got == sum(1 for a, b in functions if not any(s < a and b < e for s, e in chunks)):
                slip = "a chunk that starts or ends where the function does holds it whole: `<=`"
            elif isinstance(got, list | tuple | set) and len(got) == expected:
                slip = "those are the functions cut: return how many, len(...) of them"
            elif got in _one_end_counts(functions, chunks):
                slip = "a chunk holding one end of the function must hold the other end too"
            else:
                slip = (
                    "a function is whole when one chunk has start <= its start and its end <= end"
                )
            raise NotYet(
                f"functions {functions}, chunks {chunks}: expected {expected}, got {short(got)} "
                f"({slip})"
            )
        cases += 1
    return cases


CHECKS_CODE: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    "11.1": ("merge_siblings(sizes, budget) -> list of lists of indices", check_merge_siblings),
    "11.2": ("functions_cut(functions, chunks) -> int", check_functions_cut),
    **CHECKS_FAMILY,  # companion 11c's: teaching.exercises_code_family
    **CHECKS_SPLIT_LINES,  # companion 11b's: teaching.exercises_split_lines
}
SOLUTIONS_CODE: dict[str, tuple[str, Callable[[], object]]] = {}  # 11c.1 is checked as a function
FORMS_CODE: dict[str, Form] = {}
