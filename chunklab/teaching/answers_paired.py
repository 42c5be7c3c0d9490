"""Exercise 07c.1's answer: one paired comparison read inside its family, given with the
family's size m, and the wrong answers a refusal names (another m, named by what it counts; the
line read at 0.05, or at 0.05 / 2, 6, 12 or 36, where the pick among three retrievers asks
0.05 / 3: the interval's high end, asked beside the verdict, shows the level, where the low end
is the same from 3 to 12; levels that print the same high end named together; the high
end written as a fraction; `reached` read in place of `complete`; the two cuts' unpaired totals
given as won and lost; the pair the other way round; another retriever; `markdown` or its `+path`
twin in place of `markdown-lin`; k = 1 or 5 in place of 3).

Why a module of its own: the slips are the ones notebooks 07 and 07c teach against, so each refusal
says which one it is; `answers_experiments` registers the exercise. Reading this file gives the
answer away: try first.
"""

from __future__ import annotations

from functools import lru_cache
from numbers import Integral
from typing import Any

from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.evaluation.experiment import real_strategies, run_experiment
from chunklab.evaluation.questions import load_question_file
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.teaching.claims import compare

PAIR = ("markdown-lin", "fixed_size")  # a and b, in the prompt's order
RETRIEVER = "hybrid"
FAMILY = 3  # m: the pick among notebook 07c's three retrievers (BM25, WordLlama, the hybrid)
AMONG_THREE = 100 - 5 / FAMILY
K = 3  # the exercise reads `complete` at k = 3


@lru_cache(maxsize=None)
def _complete(
    retriever: str, pair: tuple[str, str] = PAIR, k: int = K, measure: str = "complete"
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Each cut's `measure` at `k` with `retriever`, one score per question, in order."""
    docs = {n: load_document(n) for n in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    strategies = {name: real_strategies()[name] for name in pair}
    rows = run_experiment(
        docs, questions, strategies, {retriever: RETRIEVERS[retriever]()}, ks=(k,), progress=False
    )
    score = {(r["strategy"], r["question"]): float(r[measure]) for r in rows}
    a, b = (tuple(score[name, q.id] for q in questions) for name in pair)
    return a, b


def read_pair(
    retriever: str,
    level: float,
    pair: tuple[str, str] = PAIR,
    k: int = K,
    measure: str = "complete",
) -> tuple[int, int, float, str]:
    """Won, lost, the interval's high end (one decimal, as printed) and the verdict of `pair` at
    `k` with `retriever`, read at `level`: the right answer and each plausible slip (another cut,
    retriever, k or level) come from this one reading. The high end carries the level the line was
    read at, so a verdict guessed without it does not pass."""
    a, b = _complete(retriever, pair, k, measure)
    made = compare(a, b, show=False, level=level)
    return made.won, made.lost, round(made.high, 1), made.verdict


def paired_in_family() -> tuple[int, int, int, float, str]:
    """m, then markdown-lin against fixed_size with the hybrid at k = 3, read at 0.05 / 3 (its
    low end reads the same at every m from 3 to 12; its high end does not)."""
    return (FAMILY, *read_pair(RETRIEVER, AMONG_THREE))


def _family_misses(line: tuple[int, int, float, str]) -> dict[Any, str]:
    """The right line given with another family size: each m named by what it counts."""
    named = {
        1: "m = 1 reads the line alone, at 0.05",
        2: "m = 2 counts two retrievers; count again the retrievers the question picks among",
        4: "m = 4 counts a fourth retriever; 07c runs three (bm25, wordllama, hybrid)",
        11: "m = 11 counts the cuts; the question fixes the pair of cuts and picks the retriever",
        36: "m = 36 is the search over pairs of cuts, not this question's",
    }
    generic = "the family is what the question picks among: one line per retriever"
    return {
        (m, *line): named.get(m, generic) + "; count m from what the question picks among"
        for m in range(100)
        if m != FAMILY
    }


def paired_misses() -> dict[Any, str]:
    """The plausible wrong answers, each with the slip it is (computed, never typed in): the
    line's slips given with m = 3, the levels' slips with their own m too, and the right line
    with another m."""
    line = read_pair(RETRIEVER, AMONG_THREE)
    misses = {(FAMILY, *key): why for key, why in _line_misses(line).items()}
    for key, why in _level_misses(*line[2:]).items():
        for m in (FAMILY, *_LEVEL_M.get(key[:3], ())):
            misses.setdefault((m, *key), why)
    misses |= _family_misses(line)
    misses.pop((FAMILY, *line), None)
    return misses


_LEVEL_M: dict[tuple[int, int, float], tuple[int, ...]] = {}  # a level's line -> its m


def _line_misses(line: tuple[int, int, float, str]) -> dict[Any, str]:
    """Another cut, retriever, k or measure, read in the right family (four items each)."""
    won, lost, high, verdict = line
    misses: dict[Any, str] = {}
    twin = f"{PAIR[0]}+path"
    for (got_won, got_lost, got_high, _), hint in [
        (
            read_pair(RETRIEVER, AMONG_THREE, ("markdown", PAIR[1])),
            f"that is `markdown`; the exercise asks `{PAIR[0]}`, the linearizing cut",
        ),
        (
            read_pair(RETRIEVER, AMONG_THREE, (twin, PAIR[1])),
            f"that is `{twin}`, the twin with the heading path written in front; the exercise "
            f"asks `{PAIR[0]}`, no heading path",
        ),
        *[
            (
                read_pair(RETRIEVER, AMONG_THREE, k=k),
                f"that is k={k}; the exercise reads `complete` at k={K}",
            )
            for k in (1, 5)
        ],
    ]:
        for word in ("better", "worse", "no difference shown"):
            misses[(got_won, got_lost, got_high, word)] = hint
    for other in ("bm25", "wordllama"):
        misses[read_pair(other, AMONG_THREE)] = f"that is {other}; the exercise asks the hybrid"
    reached = read_pair(RETRIEVER, AMONG_THREE, measure="reached")
    for word in ("better", "worse", "no difference shown"):
        misses.setdefault(
            (*reached[:3], word),
            "that is `reached` (half the evidence in one chunk); the exercise reads `complete` "
            "(every fact in one chunk)",
        )
    misses.pop((won, lost, high, verdict), None)  # a slip that happens to read the same is not one
    return misses


def _level_misses(high: float, verdict: str) -> dict[Any, str]:
    """The line read at another level than the pick's (0.05, or a family of 2, 6, 12 or 36), and the
    high end written as a fraction: levels that print the same high end are named together."""
    named: dict[tuple[int, int, float], list[str]] = {}
    for m, level in (
        (1, "0.05"),
        (2, "0.05 / 2"),
        (6, "0.05 / 6"),
        (12, "0.05 / 12"),
        (36, "0.05 / 36"),
    ):
        read = read_pair(RETRIEVER, 100 - 5 / m)
        if read[2] != high:
            named.setdefault(read[:3], []).append(f"the line read at {level}")
            _LEVEL_M[read[:3]] = (*_LEVEL_M.get(read[:3], ()), m)
    won, lost = read_pair(RETRIEVER, AMONG_THREE)[:2]
    named.setdefault((won, lost, round(high / 100, 1)), []).append(
        "the high end written as a fraction (`compare` prints it in percentage points)"
    )
    misses: dict[Any, str] = {}
    for key, whats in named.items():
        why = (
            "that high end is " + ", or ".join(whats) + ": which retriever shows a lead is a pick "
            "among three, one line per retriever, so read the interval and the sign test at "
            "0.05 / 3"
        )
        for word in ("better", "worse", "no difference shown"):
            misses[(*key, word)] = why
    return misses


def paired_hint(answer: Any, solution: Any) -> str:
    """07c.1: the pair the other way round, the unpaired totals, a verdict that is not one of
    compare's three words (judged on won and lost alone, whatever the high end given)."""
    if not isinstance(answer, (list, tuple)) or len(answer) != 5:
        return ""
    if answer[0] != FAMILY and isinstance(answer[0], Integral):
        return "m is the family's size: " + _family_misses(tuple(solution[1:])).get(
            (answer[0], *solution[1:]),
            "one line per retriever the question picks among: count them",
        )
    return _line_hint(tuple(answer[1:]), tuple(solution[1:]))


def _line_hint(answer: tuple, solution: tuple) -> str:
    """The line's own slips (won, lost, high, verdict), given with m = 3."""
    words = ("better", "worse", "no difference shown")
    a, b = _complete(RETRIEVER)
    if tuple(answer[:2]) == (solution[1], solution[0]):
        return (
            "that is fixed_size against markdown-lin: a is markdown-lin, so won counts the "
            "questions markdown-lin completes and fixed_size does not"
        )
    if tuple(answer[:2]) == (int(sum(a)), int(sum(b))):
        return (
            "those are the two cuts' totals, unpaired: won and lost count questions, the ones "
            "only one of the two completes"
        )
    for wrong, why in paired_misses().items():  # another cut, retriever or k, read at any level
        if tuple(answer[:2]) == wrong[1:3] != tuple(solution[:2]):
            return why
    if answer[3] not in words:
        return f"the verdict is one of compare's words: {', '.join(map(repr, words))}"
    if answer[3] == "better" and tuple(answer[:2]) == tuple(solution[:2]):
        return (
            "'better' needs both tests to pass at the family's level: read the sign test's p "
            "against 0.05 / 3, not against 0.05"
        )
    if answer[3] == "worse":
        if all(isinstance(n, Integral) for n in answer[:2]) and answer[0] > answer[1]:
            return (
                "'worse' would say markdown-lin completes fewer questions, yet it wins more than "
                "it loses: read the verdict `compare` prints"
            )
    return ""
