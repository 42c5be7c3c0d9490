"""The check of notebook 10b's exercise 10b.1: the hybrid's fusion, written by hand from the
retrievers' raw scores, and its slips.

10b.1 asks for `fuse(scored, k, depth)`: `scored` holds one dict per retriever, each id to that
retriever's score (higher is better, each retriever on its own scale). The learner ranks each
dict best first, keeps its top `depth`, and gives each kept id the sum, over the rankings that
keep it, of 1 / (k + its rank there), ranks counted from 1 (Cormack, Clarke and Büttcher, 2009;
the library's `retrievers.reciprocal_rank_fusion` with k = `RRF_K`, read `HYBRID_DEPTH` deep).
Notebook 10b's cell fuses rankings it was handed; here the ranking and the depth are the
learner's to write, on cases the notebook never shows. The slips named: the raw scores added
(the scales differ: fusion adds ranks' reciprocals), each dict read in its own order or worst
first, the depth ignored, off by one or applied to the fused dict instead of each ranking,
ranks counted from 0, the constant left out,
`1 / k + rank`, `1 / (k * rank)`, a mean or a maximum instead of the sum, ranks added, k fixed at
60, only the ids every ranking keeps, an id a ranking lacks counted as ranked just past its end;
and scores rounded. A call into `reciprocal_rank_fusion` is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from chunklab.retrieval.retrievers import reciprocal_rank_fusion
from chunklab.teaching.checking import NotYet, run_without, short

Rankings = list[list[str]]


def expected_fusion(rankings: Rankings, k: float) -> dict[str, float]:
    """Each id's sum, over the rankings that hold it, of 1 / (k + its rank from 1)."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            fused[item] = fused.get(item, 0.0) + 1.0 / (k + rank)
    return fused


def _per_item(rankings: Rankings, score: Callable[[int], float]) -> dict[str, list[float]]:
    """Each id's list of `score(rank)`, one per ranking that holds it (ranks from 1)."""
    out: dict[str, list[float]] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            out.setdefault(item, []).append(score(rank))
    return out


def _slips(rankings: Rankings, k: float) -> dict[str, dict[str, float]]:
    """What each predictable slip returns on one case -> the words that name it."""
    reciprocal = _per_item(rankings, lambda r: 1.0 / (k + r))
    every = set.intersection(*(set(r) for r in rankings))
    ids = list(expected_fusion(rankings, k))
    past_end = {
        item: sum(1.0 / (k + (r.index(item) + 1 if item in r else len(r) + 1)) for r in rankings)
        for item in ids
    }
    return {
        "you counted ranks from 0: the first item has rank 1, so it scores 1 / (k + 1)": {
            i: sum(1.0 / (k + r - 1) for r in ranks)
            for i, ranks in _per_item(rankings, float).items()
        },
        "you left out the constant: each term is 1 / (k + rank), not 1 / rank": {
            i: sum(v) for i, v in _per_item(rankings, lambda r: 1.0 / r).items()
        },
        "you wrote 1 / k + rank: the brackets go round the sum, 1 / (k + rank)": {
            i: sum(v) for i, v in _per_item(rankings, lambda r: 1.0 / k + r).items()
        },
        "you averaged over the rankings that hold the id: fusion adds them, so an id two "
        "rankings agree on rises": {i: float(np.mean(v)) for i, v in reciprocal.items()},
        "you divided the sum by the number of rankings: fusion adds the terms, it does not "
        "average them": {i: sum(v) / len(rankings) for i, v in reciprocal.items()},
        "you multiplied, 1 / (k * rank): the constant is added to the rank, 1 / (k + rank)": {
            i: sum(v) for i, v in _per_item(rankings, lambda r: 1.0 / (k * r)).items()
        },
        "you kept the best of the id's terms: fusion adds one term per ranking that holds it": {
            i: max(v) for i, v in reciprocal.items()
        },
        "you added the ranks themselves: add their reciprocals, 1 / (k + rank)": {
            i: sum(v) for i, v in _per_item(rankings, float).items()
        },
        "you used 60 whatever k is: use the k you are given": expected_fusion(rankings, 60),
        "you kept only the ids every ranking holds: an id found by one ranking still scores its "
        "term there": {i: v for i, v in expected_fusion(rankings, k).items() if i in every},
        "you counted an id a ranking lacks as ranked just past its end: a ranking that lacks "
        "an id adds nothing for it": past_end,
        "you ranked from the end: each ranking is best first, so its first id has rank 1": {
            i: sum(v) for i, v in _reversed_terms(rankings, k).items()
        },
    }


def _reversed_terms(rankings: Rankings, k: float) -> dict[str, list[float]]:
    """Each id's terms with every ranking read from its end (the last id rank 1)."""
    return _per_item([list(reversed(r)) for r in rankings], lambda r: 1.0 / (k + r))


def _cases() -> list[tuple[Rankings, float]]:
    """Hand-picked cases first (the first tells every slip apart), then random ones."""
    cases: list[tuple[Rankings, float]] = [
        ([["a", "b", "c"], ["c", "d", "a", "e"]], 2),
        ([["x", "y"], ["y", "x"]], 60),
        ([["p", "q", "r"]], 1),
        ([["a", "b"], ["c"], ["b", "c", "a"]], 10),
    ]
    rng = np.random.default_rng(1009)
    pool = [f"c{i}" for i in range(12)]
    for _ in range(20):
        rankings = [
            [str(x) for x in rng.choice(pool, size=int(rng.integers(1, 9)), replace=False)]
            for _ in range(int(rng.integers(1, 4)))
        ]
        cases.append((rankings, float(rng.choice([1, 5, 20, 60]))))
    # no id shared: a cut of the fused dict is told apart from a ranking cut one short
    cases.append(([["p", "q", "r"], ["s", "t", "u"]], 5))
    return cases


def _same(got: Mapping, want: Mapping[str, float]) -> bool:
    if set(got) != set(want):
        return False
    try:
        return all(abs(float(got[i]) - want[i]) <= 1e-9 for i in want)
    except (TypeError, ValueError):
        return False


def _which_slip(got: object, rankings: Rankings, k: float) -> str:
    if not isinstance(got, Mapping):
        return "return a dict from each id to its fused score"
    expected = expected_fusion(rankings, k)
    matched = [
        words
        for words, slipped in _slips(rankings, k).items()
        if not _same(slipped, expected) and _same(got, slipped)
    ]
    if matched:
        return "; or ".join(matched)
    if set(got) != set(expected):
        return "every id any ranking holds gets a score, and no other id"
    for decimals in range(1, 10):
        if _same(got, {i: round(v, decimals) for i, v in expected.items()}):
            return "you rounded the scores: return them unrounded"
    return "each id scores the sum, over the rankings that hold it, of 1 / (k + its rank from 1)"


Scored = list[dict[str, float]]


def ranked(scored: Scored, depth: int) -> Rankings:
    """Each retriever's ids best first (highest score), its top `depth` kept."""
    return [sorted(d, key=lambda i: -d[i])[:depth] for d in scored]


def _score_slips(scored: Scored, k: float, depth: int) -> list[tuple[str, dict[str, float]]]:
    """The words that name each slip in reading the scores, with what it returns (one slip may
    be made two ways)."""
    kept = {i for r in ranked(scored, depth) for i in r}
    raw = {i: sum(d[i] for d in scored if i in d) for i in kept}
    fused_cut = (
        "you cut the fused result to its top `depth`: the depth cuts each retriever's ranking "
        "before the fusion, and the fused dict keeps every id some ranking kept"
    )
    return list(
        {
            "you added the raw scores: the retrievers' scales differ, so fusion ranks each "
            "retriever's ids and adds 1 / (k + rank)": raw,
            "you ranked each dict in the order it came in: rank its ids by score, best first": (
                expected_fusion([list(d)[:depth] for d in scored], k)
            ),
            "you fused the dicts as they came: rank each one's ids by score, best first, and keep "
            "its top `depth`": expected_fusion([list(d) for d in scored], k),
            "you ranked worst first: the highest score has rank 1": expected_fusion(
                [sorted(d, key=lambda i: d[i])[:depth] for d in scored], k
            ),
            "you kept every id: keep each retriever's top `depth` only": expected_fusion(
                ranked(scored, max(len(d) for d in scored)), k
            ),
            "you kept depth + 1 ids: keep exactly the top `depth`": expected_fusion(
                ranked(scored, depth + 1), k
            ),
            fused_cut: _top(expected_fusion(ranked(scored, max(len(d) for d in scored)), k), depth),
            "you kept depth - 1 ids: keep exactly the top `depth`": expected_fusion(
                ranked(scored, depth - 1), k
            ),
        }.items()
    ) + [(fused_cut, _top(expected_fusion(ranked(scored, depth), k), depth))]


def _top(fused: dict[str, float], depth: int) -> dict[str, float]:
    """The `depth` ids of a fused dict with the highest scores."""
    return {i: fused[i] for i in sorted(fused, key=lambda i: -fused[i])[:depth]}


def _where_they_differ(got: object, want: Mapping[str, float]) -> str:
    """The ids and scores where an answer differs from the expected one, so a long dict cut
    short in the message does not hide them."""
    if not isinstance(got, Mapping):
        return ""
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want), key=str)
    off = {i: (want[i], got[i]) for i in want if i in got and not _same({i: got[i]}, {i: want[i]})}
    parts = [
        f"ids missing from yours {short(missing, 120)}" if missing else "",
        f"ids yours should not hold {short(extra, 120)}" if extra else "",
        f"scores off (expected, yours) {short(off, 160)}" if off else "",
    ]
    return "; ".join(p for p in parts if p) + ". "


def _rounded(value: object, places: int) -> object:
    """A dict's numbers rounded, so a message shows every key before it is cut short."""
    if not isinstance(value, Mapping):
        return value
    return {
        i: round(v, places) if isinstance(v, float | int) and not isinstance(v, bool) else v
        for i, v in value.items()
    }


def _scored_cases() -> list[tuple[Scored, float, int]]:
    """The rankings of `_cases`, each turned into a dict of distinct positive scores on its own
    scale, in shuffled order, with ids past the depth that a right answer leaves out."""
    rng = np.random.default_rng(2024)
    out: list[tuple[Scored, float, int]] = []
    for n, (rankings, k) in enumerate(_cases()):
        depth = max(len(r) for r in rankings)
        scored: Scored = []
        for j, ranking in enumerate(rankings):
            tail = [f"t{n}_{j}_{x}" for x in range(int(rng.integers(1, 4)))]  # below the depth
            items = ranking + tail + ([] if len(ranking) == depth else [])
            if len(ranking) < depth:  # a ranking shorter than the depth: fill it with new ids
                items = ranking + [f"f{n}_{j}_{x}" for x in range(depth - len(ranking))] + tail
            scale = float(rng.choice([1.0, 7.5, 30.0]))
            values = np.sort(rng.uniform(0.05, 1.0, size=len(items)))[::-1] * scale
            order = rng.permutation(len(items))
            scored.append({items[i]: float(values[i]) for i in order})
        out.append((scored, k, depth))
    return out


def _matched(got: object, scored: Scored, k: float, depth: int) -> list[str]:
    """The words of each slip in reading the scores that gives `got` on this case."""
    if not isinstance(got, Mapping):
        return []
    expected = expected_fusion(ranked(scored, depth), k)
    matched = [
        words
        for words, slipped in _score_slips(scored, k, depth)
        if not _same(slipped, expected) and _same(got, slipped)
    ]
    return list(dict.fromkeys(matched))


def _which(got: object, scored: Scored, k: float, depth: int) -> str:
    if not isinstance(got, Mapping):
        return "return a dict from each kept id to its fused score"
    matched = _matched(got, scored, k, depth)
    return "; or ".join(matched) if matched else _which_slip(got, ranked(scored, depth), k)


def check_fuse(fn: Callable) -> int:
    """Every case must pass. The first failure is shown, unless two slips give its scores: then
    the first failure that one slip alone explains, if any."""
    failures: list[tuple[int, str]] = []
    for scored, k, depth in _scored_cases():
        expected = expected_fusion(ranked(scored, depth), k)
        got = run_without(
            fn,
            ([dict(d) for d in scored], k, depth),
            reciprocal_rank_fusion,
            "your function calls chunklab's reciprocal_rank_fusion: the exercise asks you to "
            "write the fusion yourself",
        )
        if not (isinstance(got, Mapping) and _same(got, expected)):
            want = {i: round(v, 4) for i, v in expected.items()}
            hint = _which(got, scored, k, depth)
            failures.append(
                (
                    len(_matched(got, scored, k, depth)),
                    (  # the slip first: the case's dicts below run long
                        f"{hint}. The case: k = {k:g}, depth = {depth}: "
                        f"{_where_they_differ(got, expected)}scores "
                        f"{short([_rounded(d, 3) for d in scored], 400)}: expected "
                        f"{short(want, 300)}, got {short(_rounded(got, 4), 300)}"
                    ),
                )
            )
    if failures:
        first = failures[0]
        raise NotYet(
            first[1] if first[0] < 2 else next((m for n, m in failures if n == 1), first[1])
        )
    return len(_scored_cases())


CHECKS_FUSION: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "10b.1": ("fuse(scored, k, depth) -> dict of id to fused score", check_fuse),
}
