"""Notebook 07's check (07.2): a verdict family from raw scores. `shown_ahead(scores, a,
baselines)` pairs strategy `a` with each baseline question by question (each strategy's scores are
a dict from question id to score, in an order of its own), reads every line at the family's level,
``100 - 5 / m`` with m the number of baselines, and returns the baselines `a` is shown ahead of, in
the family's order. Checked against `claims.compare` on families made up here, naming each
predictable slip: every line read at 0.05, `a` counted into m, the level as a fraction, scores
paired by position, the totals (or won > lost) with no test, the sign test or the interval alone,
"not worse" or any verdict for "better", the comparison turned round, and the names sorted.
Registered in `exercises`."""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short
from chunklab.teaching.claims import compare

Scores = dict[str, dict[str, float]]
Case = tuple[Scores, str, list[str]]


def _shown(
    scores: Scores,
    a: str,
    baselines: list[str],
    level: float | None = None,
    pair: str = "question",
    turned: bool = False,
    keep: str = "better",
) -> list[str]:
    level = 100 - 5 / len(baselines) if level is None else level
    out = []
    for b in baselines:
        if pair == "question":
            ours, theirs = [scores[a][q] for q in scores[a]], [scores[b][q] for q in scores[a]]
        else:  # by position: each dict in its own order
            ours, theirs = list(scores[a].values()), list(scores[b].values())
        line = (
            compare(theirs, ours, show=False, level=level)
            if turned
            else compare(ours, theirs, show=False, level=level)
        )
        kept = {
            "better": line.better,
            "interval": line.low > 0,  # half of "better": the sign test left out
            "sign test": line.won > line.lost
            and line.p_value < line.alpha,  # the interval left out
            "not worse": not line.worse,
            "decided": line.verdict != "no difference shown",  # "worse" kept too
        }[keep]
        if kept:
            out.append(b)
    return out


def shown_ahead_expected(scores: Scores, a: str, baselines: list[str]) -> list[str]:
    """The answer: each baseline paired with `a` by question id, read at 100 - 5 / m."""
    return _shown(scores, a, baselines)


def _totals(scores: Scores, a: str, baselines: list[str]) -> list[str]:
    return [b for b in baselines if sum(scores[a].values()) > sum(scores[b].values())]


def _won_more(scores: Scores, a: str, baselines: list[str]) -> list[str]:
    def split(b: str) -> int:
        ours, theirs = scores[a], scores[b]
        return sum((ours[q] > theirs[q]) - (ours[q] < theirs[q]) for q in ours)

    return [b for b in baselines if split(b) > 0]


SLIPS: list[tuple[Callable[..., list[str]], str]] = [
    (
        lambda s, a, bs: _shown(s, a, bs, level=95.0),
        "every line read at 0.05: a family of m lines reads each at 0.05 / m, "
        "compare(..., level=100 - 5 / m) with m = len(baselines)",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, level=100 - 5 / (len(bs) + 1)),
        "m counts the strategy itself: the family is the lines read, one per baseline, so "
        "m = len(baselines)",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, pair="position"),
        "scores paired by position: each strategy's dict is in an order of its own, so line "
        "the scores up by question id",
    ),
    (
        _totals,
        "more answered in all (or more won than lost) is a lean, not a verdict: read each line "
        "with compare at the family's level and keep the lines it calls better",
    ),
    (
        _won_more,
        "more won than lost (or more answered in all) is a lean, not a verdict: read each line "
        "with compare at the family's level and keep the lines it calls better",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, turned=True),
        "the comparison turned round: those are the baselines shown ahead of a; put a's scores "
        "first",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, keep="sign test"),
        "the sign test alone: 'better' needs both tests, the paired interval's low end above 0 "
        "as well (a split of many small wins and one large loss passes the sign test with a "
        "negative mean); keep the lines compare(...).better calls ahead",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, keep="interval"),
        "the interval alone: its low end above 0 is half of 'better'; the sign test must also "
        "give p < 0.05 / m; keep the lines compare(...).better calls ahead",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, level=1 - 0.05 / len(bs)),
        "the level is a percentage: level=100 - 5 / m (98.33 for m = 3), not the fraction "
        "1 - 0.05 / m",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, keep="not worse"),
        "'not worse' also keeps the lines with no difference shown; keep only the lines "
        "compare(...).better calls ahead",
    ),
    (
        lambda s, a, bs: _shown(s, a, bs, keep="decided"),
        "the lines called worse kept too: 'worse' is a verdict as well (a behind b), not only "
        "'no difference shown'; keep only the lines compare(...).better calls ahead",
    ),
    (
        lambda s, a, bs: sorted(_shown(s, a, bs)),
        "the right baselines, sorted: return them in the family's order, the order of `baselines`",
    ),
]


def _family(rng: random.Random, a: str, splits: dict[str, tuple[int, int]]) -> Scores:
    """Scores on 43 questions, `a` answering 30: against each baseline, `won` of those 30 it
    does not answer, `lost` of the other 13 it does, the rest as `a`; each dict in its own order."""
    ids = [f"q{i:02d}" for i in range(1, 44)]
    answered = set(rng.sample(ids, 30))
    scores = {a: {q: float(q in answered) for q in ids}}
    for b, (won, lost) in splits.items():
        flipped = set(rng.sample(sorted(answered), won)) | set(
            rng.sample(sorted(set(ids) - answered), lost)
        )
        scores[b] = {q: float((q in answered) != (q in flipped)) for q in ids}
    for name, held in scores.items():
        order = list(held)
        rng.shuffle(order)
        scores[name] = {q: held[q] for q in order}
    return scores


def _by_a_hair() -> Scores:
    """Fractional scores on 43 questions, a family of two: against `windows`, `path` wins 12
    questions by 0.05 and loses one by 1.0 (the sign test rejects at 0.05 / 2, the mean
    difference is negative, so the interval does not clear 0: not better); against `structural`
    it wins 9 and loses none (better). The sign test alone keeps both."""
    ids = [f"q{i:02d}" for i in range(1, 44)]
    path = {q: 1.0 if i < 30 else 0.0 for i, q in enumerate(ids)}
    windows = {q: path[q] - 0.05 if i < 12 else path[q] for i, q in enumerate(ids)}
    windows[ids[30]] = 1.0  # the one large loss
    structural = {q: 0.0 if i < 9 else path[q] for i, q in enumerate(ids)}
    return {"path": path, "windows": dict(reversed(windows.items())), "structural": structural}


def _cases() -> list[Case]:
    rng = random.Random(38)
    families = [  # each slip changes the answer on at least one of these
        {"windows": (7, 0), "structural": (6, 0), "semantic": (2, 1)},  # 6-0 passes only at 0.05
        {"windows": (6, 0)},  # a family of one: at 0.05; counted as two it fails
        {"windows": (9, 0), "structural": (0, 9), "semantic": (8, 0), "lin": (3, 3)},  # one behind
        {"windows": (4, 0), "structural": (10, 0), "semantic": (5, 2), "lin": (1, 4), "md": (7, 0)},
        {"windows": (3, 1), "structural": (12, 0)},  # more in total, not shown
    ]
    cases: list[Case] = [(_family(rng, "path", f), "path", list(f)) for f in families]
    cases.append((_by_a_hair(), "path", ["windows", "structural"]))
    for _ in range(6):
        m = rng.randint(1, 6)
        splits = {f"cut{i}": (rng.randint(0, 12), rng.randint(0, 4)) for i in range(m)}
        cases.append((_family(rng, "path", splits), "path", list(splits)))
    return cases


def check_shown_ahead(fn: Callable) -> int:
    """07.2: the baselines `a` is shown ahead of, each line read at 0.05 / len(baselines)."""
    cases = _cases()
    for scores, a, baselines in cases:
        got = fn({k: dict(v) for k, v in scores.items()}, a, list(baselines))
        expected = shown_ahead_expected(scores, a, baselines)
        if not isinstance(got, list) or list(got) != expected:
            named = consistent_slips(
                fn, SLIPS, cases, shape=lambda r: list(r) if isinstance(r, list) else r
            )
            why = (
                named[0]
                if named
                else (
                    "pair by question id, read each line at compare(..., level=100 - 5 / m), keep "
                    "the baselines whose line is better, in the family's order"
                )
            )
            splits = {b: _split(scores, a, b) for b in baselines}
            raise NotYet(
                f"a family of {len(baselines)}, won-lost {short(splits, 160)}: expected "
                f"{expected}, got {short(got)}: {why}"
            )
    return len(cases)


def _split(scores: Scores, a: str, b: str) -> str:
    won = sum(scores[a][q] > scores[b][q] for q in scores[a])
    lost = sum(scores[a][q] < scores[b][q] for q in scores[a])
    return f"{won}-{lost}"


CHECKS_VERDICT_FAMILY = {
    "07.2": ("shown_ahead(scores, a, baselines) -> list of baselines", check_shown_ahead),
}
