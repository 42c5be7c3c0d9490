"""The coding exercise on small-to-big's second stage (03.1): child hits, in any order, lifted to
their parents, each parent once, ranked by its best child and carrying it.

Why a check of its own: the lift is the whole of small-to-big once the children are ranked, and
the slips are predictable: the hits taken in the order they came, a parent listed twice, a parent
ranked by the sum or the count of its children's scores, the first child seen or the worst kept
instead of the best, the parents in first-seen order, the hits cut to `max_parents` before the
lift. Fixed cases tell each slip apart and the refusal names it (every slip a case matches);
random cases follow.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short

Hit = tuple[str, float]
Lifted = tuple[str, str, float]


def lift_expected(hits: list[Hit], parent_of: dict[str, str], max_parents: int) -> list[Lifted]:
    """The answer: (parent, its best child, that child's score), best first, each parent once."""
    out: list[Lifted] = []
    for child, score in sorted(hits, key=lambda hit: -hit[1]):
        if all(parent_of[child] != parent for parent, _, _ in out):
            out.append((parent_of[child], child, score))
    return out[:max_parents]


def _in_given_order(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: lifts the hits in the order they came, never sorted by score."""
    out: list[Lifted] = []
    for child, score in hits:
        if all(parent_of[child] != parent for parent, _, _ in out):
            out.append((parent_of[child], child, score))
    return out[:max_parents]


def _worst_first(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: sorts by score the wrong way round, lowest first."""
    return _in_given_order(sorted(hits, key=lambda hit: hit[1]), parent_of, max_parents)


def _with_repeats(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: one entry per child hit, so a parent with two good children comes twice."""
    ranked = sorted(hits, key=lambda hit: -hit[1])
    return [(parent_of[child], child, score) for child, score in ranked][:max_parents]


def _pooled(hits, parent_of, max_parents, pool: Callable[[list[float]], float]) -> list[Lifted]:
    best = {parent: (child, score) for parent, child, score in lift_expected(hits, parent_of, 99)}
    pooled = {p: pool([s for c, s in hits if parent_of[c] == p]) for p in best}
    order = sorted(best, key=lambda p: (-pooled[p], -best[p][1]))
    return [(p, *best[p]) for p in order][:max_parents]


def _summed(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: ranks a parent by the sum of its children's scores."""
    return _pooled(hits, parent_of, max_parents, sum)


def _averaged(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: ranks a parent by the mean of its children's scores."""
    return _pooled(hits, parent_of, max_parents, lambda scores: sum(scores) / len(scores))


def _one_short(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: keeps max_parents - 1 parents (an off-by-one cut)."""
    return lift_expected(hits, parent_of, max_parents)[: max(0, max_parents - 1)]


def _counted(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: ranks a parent by how many of its children were hit."""
    return _pooled(hits, parent_of, max_parents, len)


def _first_child_kept(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: the parents in the right order, each carrying the first of its children in the
    list as given rather than its best."""
    first: dict[str, Hit] = {}
    for child, score in hits:
        first.setdefault(parent_of[child], (child, score))
    return [(p, *first[p]) for p, _, _ in lift_expected(hits, parent_of, max_parents)]


def _worst_child_kept(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: the parents in the right order, each carrying its lowest-scoring child (what a loop
    that overwrites a parent's entry at every hit keeps, once the hits are sorted best first)."""
    worst = {parent_of[c]: (c, s) for c, s in sorted(hits, key=lambda hit: -hit[1])}
    return [(p, *worst[p]) for p, _, _ in lift_expected(hits, parent_of, max_parents)]


def _first_seen_order(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: each parent carries its best child, but the parents come in the order they were
    first seen in the hits, not ranked by that best child's score."""
    best = {parent: (child, score) for parent, child, score in lift_expected(hits, parent_of, 99)}
    order = list(dict.fromkeys(parent_of[child] for child, _ in hits))
    return [(p, *best[p]) for p in order][:max_parents]


def _first_child_then_sorted(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: each parent keeps the first of its children in the list as given, then the parents
    are sorted by that child's score: the order follows the wrong child too."""
    first: dict[str, Hit] = {}
    for child, score in hits:
        first.setdefault(parent_of[child], (child, score))
    order = sorted(first, key=lambda p: -first[p][1])
    return [(p, *first[p]) for p in order][:max_parents]


def _worst_child_then_sorted(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: a parent's entry overwritten at every hit, best first, so it keeps its worst child,
    then the parents sorted by that child's score."""
    worst = {parent_of[c]: (c, s) for c, s in sorted(hits, key=lambda hit: -hit[1])}
    return [(p, *worst[p]) for p in sorted(worst, key=lambda p: -worst[p][1])][:max_parents]


def _last_child_then_sorted(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: a parent's entry overwritten at every hit in the order given, so it keeps the last
    of its children in the list, then the parents sorted by that child's score."""
    last = {parent_of[c]: (c, s) for c, s in hits}
    return [(p, *last[p]) for p in sorted(last, key=lambda p: -last[p][1])][:max_parents]


def _by_child_id(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: `sorted(hits)` sorts the (child, score) pairs by child id, not by score."""
    return _in_given_order(sorted(hits), parent_of, max_parents)


def _reversed_list(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: the right parents and children, handed back worst first."""
    return lift_expected(hits, parent_of, max_parents)[::-1]


def _reversed_then_cut(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: every parent lifted, listed worst first, then cut: the worst parents are kept."""
    return lift_expected(hits, parent_of, 10**6)[::-1][:max_parents]


def _cut_before_lift(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: keeps the best `max_parents` hits, then lifts them: two of them may share a parent."""
    best = sorted(hits, key=lambda hit: -hit[1])[:max_parents]
    return lift_expected(best, parent_of, max_parents)


def _by_parent_id(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: the right parents, each with its best child, sorted by parent id, not by score."""
    return sorted(lift_expected(hits, parent_of, max_parents))


def _rows_by_child_id(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: the right parents, each with its best child, sorted by that child's id."""
    return sorted(lift_expected(hits, parent_of, max_parents), key=lambda row: row[1])


def _by_parent_id_then_cut(hits, parent_of, max_parents) -> list[Lifted]:
    """Wrong: every parent lifted, sorted by parent id, then cut: the first ids are kept."""
    return sorted(lift_expected(hits, parent_of, 10**6))[:max_parents]


LIFT_SLIPS: list[tuple[Callable, str]] = [  # (a plausible wrong method, its slip in words)
    (_in_given_order, "you lifted the hits in the order they came: sort them by score, best first"),
    (_worst_first, "you sorted the hits lowest score first: the best child comes first"),
    (_with_repeats, "a parent appears twice: hand each parent over once, at its best child"),
    (_summed, "you ranked a parent by the sum of its children's scores: rank it by its best child"),
    (
        _averaged,
        "you ranked a parent by the mean of its children's scores: rank it by its best child",
    ),
    (_one_short, "you kept max_parents - 1 parents: keep up to max_parents"),
    (
        _counted,
        "you ranked a parent by how many children it has among the hits: rank it by its best child",
    ),
    (
        _first_child_kept,
        "each parent must carry its best child and that child's score, not the "
        "first of its children in the list",
    ),
    (
        _worst_child_kept,
        "each parent must carry its best child and that child's score, not its worst: keep the "
        "first entry of a parent once the hits are sorted best first, do not overwrite it",
    ),
    (
        _first_seen_order,
        "you ordered the parents by first appearance in the hits: order them by their best "
        "child's score, best first",
    ),
    (
        _first_child_then_sorted,
        "you kept the first child seen for each parent, not its best-scoring one, then sorted "
        "the parents by that child's score: keep each parent's best child",
    ),
    (
        _worst_child_then_sorted,
        "you overwrote each parent's entry at every hit, so it kept its worst child, then sorted "
        "the parents by that child's score: keep each parent's best child",
    ),
    (
        _last_child_then_sorted,
        "you overwrote each parent's entry at every hit in the order given, so it kept the last "
        "of its children in the list, then sorted the parents by that child's score: keep each "
        "parent's best child",
    ),
    (
        _by_child_id,
        "sorted(hits) sorts the (child, score) pairs by child id: sort by score, best first "
        "(key=lambda hit: -hit[1])",
    ),
    (_reversed_list, "your list is worst first: the parent of the best child comes first"),
    (
        _reversed_then_cut,
        "your list is worst first, so the cut to max_parents kept the worst parents: "
        "sort best first, then cut",
    ),
    (
        _by_parent_id,
        "the right parents, each with its best child, sorted by parent id: order them by "
        "their best child's score, best first",
    ),
    (
        _rows_by_child_id,
        "the right parents, each with its best child, sorted by child id: order them by "
        "their best child's score, best first",
    ),
    (
        _by_parent_id_then_cut,
        "you sorted the parents by id, then cut to max_parents, so the first ids were kept: "
        "sort by their best child's score, best first, then cut",
    ),
    (
        _cut_before_lift,
        "you cut the hits to max_parents before the lift; cut the parents, after "
        "it (two top hits may share a parent)",
    ),
]

# (hits, parent_of, max_parents), each built so that some slip above gives a list of its own.
A = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "c1": "C", "c2": "C"}
LIFT_CASES: list[tuple[list[Hit], dict[str, str], int]] = [
    ([("c1", 0.5), ("a2", 0.3), ("b1", 0.8), ("a1", 0.9)], A, 3),
    ([("b1", 0.8), ("a2", 0.35), ("c2", 0.6), ("a3", 0.3), ("c1", 0.2), ("a1", 0.1)], A, 3),
    ([("a1", 4.0), ("a2", 3.0), ("c1", 2.0), ("b1", 1.0)], A, 2),
    ([("b1", 2.0), ("a1", 1.5), ("a2", 1.2), ("a3", 1.1)], A, 2),
    ([("a1", 0.9), ("a2", 0.3), ("b1", 0.5)], A, 2),  # the first child given is A's best
    ([("a1", 1.0)], A, 1),
    ([("a3", 0.2), ("b1", 0.5), ("a1", 0.9), ("a2", 0.4)], A, 2),  # A's last child: not its worst
    ([], A, 2),
    ([("x3", 0.9), ("x2", 0.3), ("x1", 0.5)], {"x1": "B", "x2": "A", "x3": "C"}, 3),  # ids apart
]


def _why_lift(
    got: list, expected: list, case: tuple[list[Hit], dict[str, str], int], slips: list[str]
) -> str:
    hits, parent_of, most = case
    parents = [row[0] if isinstance(row, tuple) and row else row for row in got]
    if any(p in parent_of and p not in parent_of.values() for p in parents):
        return "return parent ids (parent_of[child]) first in each tuple, not child ids"
    if any(not isinstance(row, tuple) or len(row) != 3 for row in got):
        return "each item is a tuple (parent_id, child_id, score)"
    if len(got) == len(expected) and all(
        sorted(map(repr, g)) == sorted(map(repr, e)) for g, e in zip(got, expected, strict=True)
    ):
        return "each tuple holds the right values in another order: (parent_id, child_id, score)"
    if len(got) > most and len(set(parents)) == len(parents):
        return f"at most max_parents={most} parents"
    matched = slips or [
        why for slip, why in LIFT_SLIPS if got == slip(list(hits), dict(parent_of), most)
    ]
    if matched:  # two slips can give the same list on every fixed case: name each
        return "; or ".join(matched)
    if len(set(parents)) < len(parents):
        return "a parent appears twice: hand each parent over once, at its best child"
    if sorted(got) == sorted(expected):
        return (
            "the right parents, each with its best child, in the wrong order: best child's "
            "score first"
        )
    if [row[:2] for row in got] == [row[:2] for row in expected]:
        return (
            "the right parents in the right order, each with its best child, but not that "
            "child's own score: carry the best child's score, not a sum or mean of its children's"
        )
    if [row[0] for row in got] == [row[0] for row in expected]:
        return (
            "the right parents in the right order, but not each one's best child: keep each "
            "parent's best child and its score, not its first, last or worst"
        )
    return "not the parents expected"


def _rows(lifted) -> list:
    return [tuple(row) if isinstance(row, list) else row for row in lifted]


def check_lift(fn: Callable) -> int:
    rng, cases = random.Random(32), []
    for _ in range(40):
        parent_of = {f"c{k}": f"p{rng.randint(0, 4)}" for k in range(rng.randint(1, 9))}
        scores = rng.sample(range(1, 100), len(parent_of))
        hits = [(child, score / 10) for child, score in zip(parent_of, scores, strict=True)]
        rng.shuffle(hits)
        cases.append((hits, parent_of, rng.randint(1, 4)))
    for hits, parent_of, most in [*LIFT_CASES, *cases]:
        expected = lift_expected(hits, parent_of, most)
        given = list(hits)
        got = _rows(fn(given, dict(parent_of), most))
        if given != list(hits):
            raise NotYet("your lift reordered the caller's hits: sort a copy, sorted(hits, ...)")
        if got != expected:  # the slips whose lists the learner's matches on every fixed case
            slips = consistent_slips(fn, LIFT_SLIPS, LIFT_CASES, _rows)
            why = _why_lift(got, expected, (hits, parent_of, most), slips)
            raise NotYet(
                f"{why}. Case: hits {hits}, parents {parent_of}, max_parents={most}: "
                f"expected {expected}, got {short(got)}"
            )
    return len(LIFT_CASES) + len(cases)
