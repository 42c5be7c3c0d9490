"""Checks for the coding exercises: the learner writes a function, the check runs it on cases it
has not seen.

Each check builds its own cases from a fixed seed (so a stored notebook output never changes) and
judges the learner's answer by what a correct answer must do: against the library where the
library does the same thing (`pack_spans`, `with_neighbours`, `article_path_chunks(fixed=True)`,
`reciprocal_rank`), by the exercise's rule where it does not. Any correct function passes, however
it is written.

A wrong answer, or one that raises, gets "not yet: …" naming the first case it got wrong; a check
never raises on the learner's behalf. `chunklab.teaching.selfcheck.check("NN.x", your_function)` is
the entry point the notebooks use.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.prefixes import article_path_chunks
from chunklab.chunkers.semantic import with_neighbours
from chunklab.contracts import Document
from chunklab.teaching.checking import NotYet, Verdict, first_difference, short
from chunklab.teaching.exercises_02 import check_closes_fence, check_repack_tokens
from chunklab.teaching.exercises_03 import check_merged_windows, check_parents_within
from chunklab.teaching.exercises_0709 import CHECKS_0709

# --- 01.4: windows that end at a line break ----------------------------------------------------


def _line_texts(rng: random.Random, lines: int) -> str:
    words = ["pump", "valve", "30", "dias", "inspect", "0,08", "mm", "|", "log", "shaft", "limit"]
    out = []
    for _ in range(lines):
        out.append(" ".join(rng.choice(words) for _ in range(rng.choice([0, 1, 3, 6, 12, 30]))))
    return "\n".join(out) + rng.choice(["", "\n"])


def _check_line_windows(fn: Callable) -> int:
    rng, cases = random.Random(1), 0
    for size in (20, 45, 80, 200):
        for _ in range(12):
            text = _line_texts(rng, rng.randint(1, 14))
            spans = [tuple(s) for s in fn(text, size)]
            expected, start = [], 0
            while start < len(text):
                stop = min(start + size, len(text))
                if stop < len(text):
                    last_break = text.rfind("\n", start, stop)
                    if last_break >= 0:
                        stop = last_break + 1
                expected.append((start, stop))
                start = stop
            if spans != expected:
                k, should, got = first_difference(spans, expected, str)
                raise NotYet(
                    f"size={size}, text={short(text, 60)}: window {k} should be {should}, got {got}"
                )
            cases += 1
    return cases


# --- 04.3: the sentence buffer -------------------------------------------------------------------


def _check_buffered(fn: Callable) -> int:

    rng, cases = random.Random(4), 0
    for _ in range(30):
        texts = [f"s{k}" for k in range(rng.randint(0, 9))]
        buffer_size = rng.randint(0, 4)
        got, expected = list(fn(texts, buffer_size)), with_neighbours(texts, buffer_size)
        if got != expected:
            raise NotYet(
                f"texts={texts}, buffer_size={buffer_size}: expected {expected}, got {short(got)}"
            )
        cases += 1
    return cases


# --- 05.1: a `column: value` row ---------------------------------------------------------------


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _check_column_value(fn: Callable) -> int:
    rng, cases = random.Random(5), 0
    names = ["Measure", "Unit", "Limit", "Action", "City", "Daily limit (USD)", "Owner", "Due"]
    values = [
        "Vibration",
        "mm/s",
        "4,5",
        "Stop the machine",
        "Tokyo",
        "90",
        "ops",
        "2026-03-01",
        "0,08",
    ]
    for _ in range(30):
        header_cells = rng.sample(names, rng.randint(1, 5))
        row_cells = [rng.choice(values) for _ in header_cells]
        header = "| " + " | ".join(header_cells) + " |"
        row = "| " + " | ".join(row_cells) + " |"
        got = fn(header, row)
        if not isinstance(got, str):
            raise NotYet(f"expected a string, got {short(got)}")
        pairs = [f"{h}: {v}" for h, v in zip(header_cells, row_cells, strict=True)]
        at = 0
        for pair in pairs:
            found = got.find(pair, at)
            if found < 0:
                raise NotYet(
                    f"header {header!r}, row {row!r}: {pair!r} missing (or out of order) in {got!r}"
                )
            at = found + len(pair)
        if "|" in got:
            raise NotYet(f"header {header!r}, row {row!r}: a pipe is left in {got!r}")
        cases += 1
    return cases


# --- 06.3: the path prefix, level fixed ----------------------------------------------------------


def _numbered_document(rng: random.Random) -> str:
    titles = ["Escopo", "Frequência", "Tabela", "Registro", "Segurança", "Anexos"]
    parts = ["MANUAL DE TESTE"]
    for number in range(1, rng.randint(2, 6)):
        body = " ".join(
            rng.choice(["A inspeção", "ocorre", "a cada", "30 dias.", "O técnico", "registra."])
            for _ in range(rng.randint(3, 9))
        )
        parts.append(f"{number}. {rng.choice(titles)}\n{body}")
        if rng.random() < 0.4:
            parts.append("Outro parágrafo da mesma seção.")
    return "\n\n".join(parts) + "\n"


def _check_fixed_path_chunks(fn: Callable) -> int:

    rng, cases = random.Random(6), 0
    for k in range(20):
        text = _numbered_document(rng)
        doc = Document(doc_id=f"t{k}", uri=f"urn:exercise:{k}", title="", text=text)
        expected = [c.text for c in article_path_chunks(doc, fixed=True)]
        got = list(fn(text))
        if got != expected:
            k, should, wrong = first_difference(got, expected, short)
            raise NotYet(f"on {short(text, 70)}: chunk {k} should be {should}, got {wrong}")
        cases += 1
    return cases


CHECKS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01.4": ("line_windows(text, size) -> list of (start, end)", _check_line_windows),
    "02.1": ("repack_tokens(text, spans, budget) -> list of (start, end)", check_repack_tokens),
    "02b.1": ("closes_fence(opening, line) -> bool", check_closes_fence),
    "03.3": (
        "parents_within(ranked_children, parent_of, parent_tokens, budget) -> list of parent ids",
        check_parents_within,
    ),
    "03b.2": (
        "merged_windows(windows) -> list of (first, last) sentence ranges",
        check_merged_windows,
    ),
    "04.3": ("buffered(texts, buffer_size) -> list of str", _check_buffered),
    "05.1": ("column_value(header, row) -> str", _check_column_value),
    "06.3": ("fixed_path_chunks(text) -> list of chunk texts", _check_fixed_path_chunks),
    **CHECKS_0709,  # notebooks 07 to 09: teaching.exercises_0709
}


def verdict(exercise: str, fn: Any) -> Verdict:
    """Run the learner's function on the exercise's cases: passed, and a one-line message."""
    if exercise not in CHECKS:
        raise KeyError(f"no coding exercise {exercise!r} (known: {', '.join(CHECKS)})")
    shape, run = CHECKS[exercise]
    if not callable(fn):
        return Verdict(False, f"Exercise {exercise}: not yet: pass your function itself, {shape}.")
    try:
        cases = run(fn)
    except NotYet as miss:
        return Verdict(False, f"Exercise {exercise}: not yet: {miss}")
    except NotImplementedError:
        return Verdict(
            False,
            f"Exercise {exercise}: not yet: the starter still raises NotImplementedError; "
            f"write {shape}.",
        )
    except Exception as error:  # the learner's code raised: report it, never raise it
        message = re.sub(r"\s+", " ", str(error))[:120]
        return Verdict(
            False,
            f"Exercise {exercise}: not yet: your function raised {type(error).__name__}: {message}",
        )
    return Verdict(True, f"Exercise {exercise}: correct on all {cases} cases it had not seen.")
