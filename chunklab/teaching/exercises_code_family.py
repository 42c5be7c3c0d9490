"""Companion 11c's exercise, a family read as one: at a budget of 500 tokens, the syntax tree paired
with each of the other six cuts on complete@5 with BM25, every comparison read at 100 - 5/m.

11c.1 asks for `tree_family(budget) -> (m, cuts)`: the family's size and the cuts the tree is shown
better than at that level. The check runs it at 500 tokens, then at 200 (a fixed answer is
refused), and names each known slip: each comparison read at 95% as if it were alone (at 500 the
two readings part), a family counted wrong, the two blind cuts taken for the whole question, 11c's
own m = 32 (its LEVEL) or the 12 lines of six cuts with both retrievers, recall@5 for complete@5,
the budget of 200, a cut too many, the interval read alone without the sign test (at 500 the same
cuts as the 95% reading, so that hint names both).

Companion 11b's exercise, 11b.1, asks for `line_scores(text, gold, top) -> (complete, recall)`:
its section 1's scoring by hand for one question, checked on toolz's functions against character
windows (a line split between two windows is held by neither), each known slip named (characters
counted for lines among them); `code_search`'s scoring is refused.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from chunklab.documents.series import data_dir
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.checking import Cases, NotYet, consistent_slips, run_without, short
from chunklab.teaching.claims import Comparison, compare
from chunklab.teaching.code_search import (
    code_lines,
    complete_at,
    corpus,
    cut_corpus,
    experiment_cuts,
    line_recall,
    score_cut,
)

FAMILY_BUDGET = 500  # 11c.1's budget: where the 95% reading and the family's reading part
NOTEBOOK_M = 32  # 11c's own family (its LEVEL), a slip within reach in 11c.1


@functools.cache
def _bm25_scores(budget: int) -> dict[str, dict[str, list[float]]]:
    """Every cut of the experiment at `budget`, scored with BM25 (cached: the slips reuse it)."""
    files, questions = corpus(data_dir() / "code" / "toolz")
    return {
        label: score_cut(files, cut_corpus(files, split), questions, BM25Retriever())
        for label, split in experiment_cuts(budget).items()
    }


def bm25_family(
    budget: int = FAMILY_BUDGET, metric: str = "complete@5", level: float | None = None
) -> dict[str, Comparison]:
    """At `budget`: the tree against each of the other cuts on `metric` with BM25, question by
    question, every comparison read at `level` (default: the family's, 100 - 5/m)."""
    scored = _bm25_scores(budget)
    others = [label for label in scored if label != "chunklab code"]
    level = 100 - 5 / len(others) if level is None else level
    return {
        other: compare(
            scored["chunklab code"][metric],
            scored[other][metric],
            a="chunklab code (bm25)",
            b=other,
            level=level,
            show=False,
        )
        for other in others
    }


def shown_better(pairs: dict[str, Comparison]) -> tuple[str, ...]:
    """The cuts the tree is shown better than, in the order of `experiment_cuts`."""
    return tuple(other for other, pair in pairs.items() if pair.verdict == "better")


def tree_family_at_500() -> tuple[int, tuple[str, ...]]:
    """11c.1's answer: (m, the cuts the tree is shown better than at the family's level)."""
    pairs = bm25_family()
    return len(pairs), shown_better(pairs)


def _family_misses() -> dict[tuple[int, tuple[str, ...]], str]:
    """11c.1's known wrong answers, each computed here from the library, with why it is wrong."""
    m, shown = tree_family_at_500()
    at_95 = shown_better(bm25_family(level=95.0))
    level_hint = (
        "that reads each comparison at 95%, as if it were the only one drawn; the question draws "
        "a family, so each is read at 100 - 5/m (compare(..., level=100 - 5/m))"
    )
    size_hint = (
        "m counts the comparisons the question draws: the tree against each other cut, on "
        "complete@5, with BM25"
    )
    misses: dict[tuple[int, tuple[str, ...]], str] = {}
    for size in sorted({m, 1, 2, m - 1, m + 1, 2 * m}):
        if size not in (1, m):  # a family counted wrong, whichever level it was then read at
            misses[(size, at_95)] = misses[(size, shown)] = size_hint
        elif sorted(at_95) != sorted(shown):  # m = 1 is the 95% reading itself
            misses[(size, at_95)] = level_hint
    misses[(1, shown)] = size_hint
    at_notebook = shown_better(bm25_family(level=100 - 5 / NOTEBOOK_M))
    for size, what in (
        (NOTEBOOK_M, "every line of 11c's family, both retrievers at 200"),
        (12, "the six other cuts with both retrievers"),
    ):
        for read in {shown, at_95, at_notebook, shown_better(bm25_family(level=100 - 5 / size))}:
            misses[(size, read)] = f"{size} counts {what}: " + size_hint
    blind = ("fixed tokens", "lines packed")
    two = shown_better({k: v for k, v in bm25_family(level=100 - 5 / 2).items() if k in blind})
    misses[(2, two)] = (
        "the question is every other cut, not only the two blind to structure: " + size_hint
    )
    slips: dict[tuple[str, ...], list[str]] = {}
    for wrong, why in (
        (
            at_notebook,
            f"m right but read at 11c's LEVEL (m = {NOTEBOOK_M}), not at level=100 - 5/{m}",
        ),
        (shown_better(bm25_family(metric="recall@5")), "recall@5 for complete@5"),
        (shown_better(bm25_family(200)), f"the budget of 200 for {FAMILY_BUDGET}"),
    ):
        if sorted(wrong) != sorted(shown):
            slips.setdefault(wrong, []).append(why)
    for wrong, whys in slips.items():
        misses.setdefault((m, wrong), "those are the verdicts with " + ", or with ".join(whys))
    extra = "one of your cuts is not 'better' at 100 - 5/m: list a cut only if its verdict says so"
    for other in bm25_family():
        if other not in shown:
            misses.setdefault((m, (*shown, other)), extra)
    interval_only = tuple(o for o, pair in bm25_family().items() if pair.low > 0)
    if sorted(interval_only) != sorted(shown):  # compare's verdict needs the sign test too
        why = (
            "that reads the interval alone (its low end above 0): 'better' also needs the sign "
            "test's p below 0.05/m, so keep the cuts whose verdict is 'better'"
        )
        old = misses.get((m, interval_only))
        misses[(m, interval_only)] = f"either {old}; or {why}" if old else why
    misses.pop((m, shown), None)
    return misses


def _as_answer(got: object) -> tuple[int, tuple[str, ...]] | None:
    """(m, the cuts sorted), or None when `got` is not a pair: a count and a collection of cuts."""
    if not isinstance(got, list | tuple) or len(got) != 2 or isinstance(got[1], str):
        return None
    m, cuts = got
    if not isinstance(m, int) or not isinstance(cuts, list | tuple | set | frozenset):
        return None
    return m, tuple(sorted(cuts))


def check_tree_family(fn: Callable) -> Cases:
    """The learner's `tree_family` at 500 tokens, each known slip named; then at 200, where the
    family shows no cut, so that a fixed answer is refused."""
    raw = fn(FAMILY_BUDGET)
    got = _as_answer(raw)
    if got is None:
        raise NotYet(f"return a pair (m, cuts): a count, and a list of cut names; got {short(raw)}")
    m, shown = tree_family_at_500()
    if got != (m, tuple(sorted(shown))):
        misses: dict[tuple[int, tuple[str, ...]], str] = {}
        for (k, cuts), why in _family_misses().items():  # the first hint for an answer stands
            misses.setdefault((k, tuple(sorted(cuts))), why)
        why = misses.get(got, "pair the tree with each other cut, count m, read each at 100 - 5/m")
        raise NotYet(f"at {FAMILY_BUDGET} tokens your function returns {short(got)}: {why}")
    at_200 = bm25_family(200)
    expected = (len(at_200), tuple(sorted(shown_better(at_200))))
    got = _as_answer(fn(200))
    if got != expected:
        raise NotYet(
            f"at 200 tokens your function returns {short(got)}, not that budget's family: "
            "cut and score at `budget`, not at a fixed 500"
        )
    said = f"the family at {FAMILY_BUDGET} tokens and at 200, both budgets the prompt names"
    return Cases(2, said)


Span = tuple[int, int]
# (chunk span, line start, first and last non-blank character) -> the chunk holds the line
Rule = Callable[[Span, int, int, int], bool]
RULES: dict[str, Rule] = {  # how a chunk holds a line: the right rule first, then known slips
    "right": lambda s, a, f, z: f < z and s[0] <= f and z <= s[1],
    "a line is held only when it lies whole inside a chunk, not when a chunk touches it": (
        lambda s, a, f, z: f < z and f < s[1] and z > s[0]
    ),
    "a line is whole from its first to its last non-blank character; its indentation need not "
    "lie inside the chunk": lambda s, a, f, z: f < z and s[0] <= a and z <= s[1],
    "blank lines are not lines of the function: count the non-blank ones only": (
        lambda s, a, f, z: s[0] <= f and z <= s[1]
    ),
    "a chunk ending just after a line's last non-blank character holds it: its end may equal "
    "the line's end": lambda s, a, f, z: f < z and s[0] <= f and z < s[1],
}


def _held(text: str, span: Span, rule: Rule) -> frozenset[int]:
    """The 1-based numbers of the lines of `text` that a chunk spanning `span` holds by `rule`."""
    out, pos = set(), 0
    for n, line in enumerate(text.split("\n"), 1):
        first, last = pos + len(line) - len(line.lstrip()), pos + len(line.rstrip())
        if rule(span, pos, first, last):
            out.add(n)
        pos += len(line) + 1
    return frozenset(out)


def _merged(spans: list[Span]) -> list[Span]:
    """Chunks next to each other (or overlapping) taken as one span."""
    out: list[Span] = []
    for a, b in sorted(spans):
        out[-1:] = (
            [(out[-1][0], max(b, out[-1][1]))] if out and a <= out[-1][1] else [*out[-1:], (a, b)]
        )
    return out


CHARACTERS = (
    "recall@5 counts lines, not characters: the share of the function's non-blank lines held, "
    "a line held when it lies whole inside one of the top chunks"
)


def _scoring_slips(text: str, gold: Span, top: list[Span]) -> list[tuple[str, tuple[float, float]]]:
    """What each known way of scoring one question returns, the right one first, as "right"; a
    slip may come in more than one variant (characters counted with white space or without)."""
    out = []
    for why, rule in RULES.items():
        g = _held(text, gold, rule)
        held = frozenset().union(*(_held(text, s, rule) for s in top))
        out.append((why, (float(g <= held), len(g & held) / len(g))))
    g, right = _held(text, gold, RULES["right"]), RULES["right"]
    held_right = frozenset().union(*(_held(text, s, right) for s in top))
    joined = frozenset().union(*(_held(text, s, right) for s in _merged(top)))
    out.append(
        (
            "a line split between two chunks is held by neither, even when they are next to "
            "each other",
            (float(g <= joined), len(g & joined) / len(g)),
        )
    )
    first = _held(text, top[0], right)
    out.append(
        (
            "you read the first chunk only: every one of the top chunks is read, and a line any "
            "of them holds is held",
            (float(g <= first), len(g & first) / len(g)),
        )
    )
    best = max(len(g & _held(text, s, right)) for s in top)
    out.append(
        (
            "complete asks that the top chunks together hold every gold line, not that one "
            "chunk holds the whole function",
            (float(best == len(g)), len(g & held_right) / len(g)),
        )
    )
    out.append(
        (
            "the top chunks count together: a line any of them holds is held",
            (float(best == len(g)), best / len(g)),
        )
    )
    for counted in (lambda c: True, lambda c: not c.isspace()):  # characters, not lines
        chars = [i for i in range(*gold) if counted(text[i])]
        inside = sum(any(a <= i < b for a, b in top) for i in chars)
        out.append((CHARACTERS, (float(inside == len(chars)), inside / len(chars))))
    return out


def _nth_slip(n: int, text: str, gold: Span, top: list[Span]) -> tuple[float, ...]:
    """The scores of the `n`-th way of `_scoring_slips`, rounded as `_rounded` rounds."""
    return _rounded(_scoring_slips(text, gold, top)[n][1])


def _rounded(scores: object) -> tuple[float, ...]:
    """A pair of scores, rounded so that two ways of summing the same shares compare equal."""
    return tuple(round(float(x), 9) for x in scores)  # type: ignore[attr-defined]


def _named_slips(fn: Callable, case: tuple, got: tuple, expected: tuple, cases: list) -> list[str]:
    """The hints of the slips whose scores `got` equals on `case`; when one case matches several
    by chance, those the learner's answers follow on every case."""
    slips = _scoring_slips(*case)

    def same(v: tuple) -> bool:
        return all(abs(float(x) - e) < 1e-9 for x, e in zip(got, v, strict=True))

    matched = [n for n, (w, v) in enumerate(slips) if w != "right" and v != expected and same(v)]
    named = list(dict.fromkeys(slips[n][0] for n in matched))
    if len(named) > 1:
        every = [(functools.partial(_nth_slip, n), slips[n][0]) for n in matched]
        named = list(dict.fromkeys(consistent_slips(fn, every, cases, shape=_rounded))) or named
    return named


def _scoring_cases() -> list[tuple[str, Span, list[Span]]]:
    """(file, a function's span, the top chunks): character windows of three widths, every other
    case without the last window touching the function, the top filled to 5 from elsewhere."""
    files, questions = corpus(data_dir() / "code" / "toolz")
    cases = []
    for n, q in enumerate(questions[::3]):
        text, width = files[q.uri], (90, 160, 900)[n % 3]
        bounds = [0, *range(37 * n % width or width, len(text), width), len(text)]
        windows = [(a, b) for a, b in zip(bounds, bounds[1:], strict=False) if a < b]
        touching = [w for w in windows if w[0] < q.end and w[1] > q.start]
        top = touching[: max(1, len(touching) - n % 2)]
        top += [w for w in windows if w not in touching][: max(0, 5 - len(top))]
        cases.append((text, (q.start, q.end), top[:5]))
    for n, q in enumerate(questions[1::20]):  # split at a line end, or in an indent
        text = files[q.uri]
        ends = [i for i in range(q.start, q.end) if text[i : i + 5] == "\n    "]
        if ends:
            cut = ends[len(ends) // 2] + 3 * (n % 2)
            cases.append((text, (q.start, q.end), [(q.start, cut), (cut, q.end)]))
    return cases


def _shape_slip(got: tuple, expected: tuple[float, float]) -> list[str]:
    """The right scores given in the wrong shape: recall as a percent, or the pair swapped."""

    def near(a: float, b: float) -> bool:
        return abs(float(a) - b) < 1e-9

    complete, recall = expected
    if near(got[0], complete) and near(got[1], 100 * recall) and recall != 0:
        return ["recall is a share from 0 to 1, not a percent"]
    if near(got[0], recall) and near(got[1], complete) and recall != complete:
        return ["return the pair in the order (complete, recall)"]
    return []


def check_line_scores(fn: Callable) -> Cases:
    """The learner's `line_scores` on every case, against `code_search`'s scoring; a miss names
    the slip whose scores it returned."""
    cases = _scoring_cases()
    refusal = "{name} is the library's scoring: write the line rule and the two scores yourself"
    for text, gold, top in cases:
        found = [frozenset(("", n) for n in code_lines(text, a, b)) for a, b in top]
        g = frozenset(("", n) for n in code_lines(text, *gold))
        expected = (complete_at(found, g), line_recall(found, g))
        got = run_without(fn, (text, gold, top), (code_lines, complete_at, line_recall), refusal)
        try:
            ok = len(got) == 2 and all(
                abs(float(x) - e) < 1e-9 for x, e in zip(got, expected, strict=True)
            )
        except (TypeError, ValueError):
            raise NotYet(f"return a pair (complete, recall) of numbers; got {short(got)}") from None
        if ok:
            continue
        where = f"lines {text.count(chr(10), 0, gold[0]) + 1}-{text.count(chr(10), 0, gold[1]) + 1}"
        named = _named_slips(fn, (text, gold, top), got, expected, cases)
        named = named or _shape_slip(got, expected)
        why = "; or ".join(named) or (
            "a gold line is a non-blank line of the function; it is held when its first to last "
            "non-blank character lies inside one of the top chunks"
        )
        raise NotYet(
            f"the function at {where}, top chunks {top}: expected {expected}, "
            f"got {short(got)}: {why}"
        )
    return Cases(
        len(cases),
        "toolz's functions against character windows of three widths, and split in two at a "
        "line's end or in a line's indentation",
    )


CHECKS_FAMILY: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    "11c.1": ("tree_family(budget) -> (m, cuts)", check_tree_family),
    "11b.1": ("line_scores(text, gold, top) -> (complete, recall)", check_line_scores),
}
