"""Self-check for the notebooks' exercises: `check("01d.1", answer)` says whether you got it;
`check("01d.2", your_function)` runs a coding exercise's function on cases it has not seen.

Each expected answer is computed here from the library when you ask, never typed in, so an
exercise stays right when the data or the code changes. Reading this file gives the solutions
away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chunklab.teaching.answers import Form, form_from_shape, judge, known_miss
from chunklab.teaching.answers_experiments import (
    AFTERWORDS_EXPERIMENTS,
    FORMS_EXPERIMENTS,
    HINTS_EXPERIMENTS,
    SOLUTIONS_EXPERIMENTS,
)
from chunklab.teaching.answers_fixed_structural import (
    FORMS_FIXED_STRUCTURAL,
    HINTS_FIXED_STRUCTURAL,
    SOLUTIONS_FIXED_STRUCTURAL,
)
from chunklab.teaching.answers_semantic import FORMS_SEMANTIC, HINTS_SEMANTIC, SOLUTIONS_SEMANTIC
from chunklab.teaching.answers_small_to_big import FORMS_SMALL_TO_BIG, SOLUTIONS_SMALL_TO_BIG
from chunklab.teaching.answers_tables_prefixes import (
    FORMS_TABLES_PREFIXES,
    HINTS_TABLES_PREFIXES,
    SOLUTIONS_TABLES_PREFIXES,
)
from chunklab.teaching.exercises import CHECKS, verdict
from chunklab.teaching.exercises_benchmark import (
    AFTERWORDS_BENCHMARK,
    FORMS_BENCHMARK,
    SOLUTIONS_BENCHMARK,
)
from chunklab.teaching.exercises_code import FORMS_CODE, SOLUTIONS_CODE
from chunklab.teaching.retriever_checks import (
    AFTERWORDS_RETRIEVERS,
    FORMS_RETRIEVERS,
    SOLUTIONS_RETRIEVERS,
)

# exercise -> (what the answer must be, the function computing it from the library)
SOLUTIONS: dict[str, tuple[str, Callable[[], Any]]] = {
    **SOLUTIONS_FIXED_STRUCTURAL,  # notebooks 01 to 02: teaching.answers_fixed_structural
    **SOLUTIONS_SMALL_TO_BIG,  # notebooks 03 to 03d: teaching.answers_small_to_big
    **SOLUTIONS_SEMANTIC,  # notebooks 04 to 04c: teaching.answers_semantic
    **SOLUTIONS_TABLES_PREFIXES,  # notebooks 05c to 06: teaching.answers_tables_prefixes
    **SOLUTIONS_EXPERIMENTS,  # notebooks 07 to 09: teaching.answers_experiments
    **SOLUTIONS_BENCHMARK,  # notebook 10: teaching.exercises_benchmark
    **SOLUTIONS_CODE,  # notebook 11: teaching.exercises_code
    **SOLUTIONS_RETRIEVERS,  # 10b: teaching.retriever_checks
}

# exercise -> (answer, solution) -> what is wrong with that answer, in words.
HINTS: dict[str, Callable[[Any, Any], str]] = {
    **HINTS_FIXED_STRUCTURAL,
    **HINTS_SEMANTIC,
    **HINTS_TABLES_PREFIXES,
    **HINTS_EXPERIMENTS,
}


FORMS: dict[str, Form] = {
    **FORMS_FIXED_STRUCTURAL,
    **FORMS_SMALL_TO_BIG,
    **FORMS_SEMANTIC,
    **FORMS_TABLES_PREFIXES,
    **FORMS_EXPERIMENTS,
    **FORMS_BENCHMARK,
    **FORMS_CODE,
    **FORMS_RETRIEVERS,
}


def form(exercise: str) -> Form:
    """The exercise's `Form`: its own entry in FORMS, else what its shape sentence implies."""
    shape = SOLUTIONS[exercise][0]
    implied = form_from_shape(shape)
    own = FORMS.get(exercise)
    if own is None:
        return implied
    return Form(
        decimals=own.decimals if own.decimals is not None else implied.decimals,
        ordered=own.ordered and implied.ordered,
        misses=own.misses,
    )


# What each solution and each table of known wrong answers came to, by the function that computed
# it. Several are whole experiments (10c.2 cuts and scores Chroma's corpora: seconds each), and a
# learner checks one exercise many times; the library and the data do not change within a
# process, so each is computed once. Keyed by the function, not the exercise id, so a table
# swapped in (a test's made-up exercise) is never answered from another's memory.
_REMEMBERED: dict[Callable[[], Any], Any] = {}


def _remembered(compute: Callable[[], Any]) -> Any:
    if compute not in _REMEMBERED:
        _REMEMBERED[compute] = compute()
    return _REMEMBERED[compute]


def solution(exercise: str) -> Any:
    """The expected answer of an answer exercise, computed from the library once per process."""
    return _remembered(SOLUTIONS[exercise][1])


def _remembering(how: Form) -> Form:
    """`how`, its known wrong answers computed at most once per process."""
    misses = how.misses
    if misses is None:
        return how
    return Form(how.decimals, how.ordered, lambda: _remembered(misses))


def verdict_for(exercise: str, answer: Any) -> str:
    """The one line `check` prints for an answer exercise: correct, or what is wrong. Judged on
    its value (`answers.judge`); a refusal says, first found: why a known wrong answer is wrong
    (FORMS), the exercise's own hint (HINTS), else what `judge` found (type, length, rounding,
    which items)."""
    shape, solve = SOLUTIONS[exercise]
    if answer is None:
        return f"Exercise {exercise}: not answered yet. Expected {shape}."
    how = _remembering(form(exercise))
    wrong = judge(answer, solution := _remembered(solve), how)
    if wrong is None:
        afterwords = {**AFTERWORDS_EXPERIMENTS, **AFTERWORDS_BENCHMARK, **AFTERWORDS_RETRIEVERS}
        afterword = afterwords.get(exercise)
        return f"Exercise {exercise}: correct." + (f" {afterword()}" if afterword else "")
    why = known_miss(answer, how)
    if why is None and exercise in HINTS:
        why = HINTS[exercise](answer, solution)
    why = why or wrong
    return f"Exercise {exercise}: not quite ({answer!r}): {why}. Expected {shape}; try again."


def check(exercise: str, answer: Any) -> None:
    """Print whether `answer` is right for `exercise`. `None` means not tried yet.

    A coding exercise (`chunklab.teaching.exercises.CHECKS`) takes the learner's function and runs
    it on cases it has not seen. An answer exercise is judged on its value (`answers.judge`): a
    tuple or a list, any rounding within the asked precision, any order where order is not asked.
    It returns nothing on purpose: a returned value would be echoed below the cell.
    """

    if exercise in CHECKS:
        print(verdict(exercise, answer).message)
        return
    if exercise not in SOLUTIONS:
        raise KeyError(f"no exercise {exercise!r} (known: {', '.join([*SOLUTIONS, *CHECKS])})")
    print(verdict_for(exercise, answer))
