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

import numpy as np

from chunklab.chunkers.prefixes import article_path_chunks
from chunklab.chunkers.semantic import with_neighbours
from chunklab.chunkers.structural import split_span
from chunklab.contracts import Document
from chunklab.documents.convert import heading_levels
from chunklab.embeddings.late import TokenVectors, pool_spans
from chunklab.embeddings.transformer import mean_pool
from chunklab.evaluation.metrics import reciprocal_rank
from chunklab.teaching.checking import NotYet, Verdict, close, first_difference, rounded, short
from chunklab.teaching.exercises_10 import CHECKS_10
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import cl100k
from chunklab.tokens.packing import pack_spans

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


# --- 02.1: repack by tokens --------------------------------------------------------------------


def _check_repack_tokens(fn: Callable) -> int:

    rng, cases = random.Random(2), 0
    sentences = [
        "Inspect the pump every 30 days.",
        "Vibration above 4,5 mm/s stops the line.",
        "Log the value.",
        "A technician signs each record, with date and time.",
        "Incomplete records are refused by the audit system.",
        "Ok.",
        "Misalignment over 0,08 mm means realigning the shaft before restart.",
        "- check the seal",
        "| Vibração | mm/s | 4,5 |",
        "Registro",
        "see section 4",
    ]
    for _ in range(60):
        budget = rng.randint(6, 60)
        if True:
            text = "\n".join(rng.choice(sentences) for _ in range(rng.randint(1, 9)))
            spans = split_span(text, 0, len(text), "\n")
            got = [tuple(s) for s in fn(text, spans, budget)]
            expected = pack_spans(spans, budget, SourceBudget(text, cl100k))
            if got != expected:
                raise NotYet(
                    f"budget={budget}, text={short(text, 60)}: "
                    f"expected {short(expected)}, got {short(got)}"
                )
            cases += 1
    return cases


# --- 03.3: parents within a token budget ---------------------------------------------------------


def _check_parents_within(fn: Callable) -> int:
    rng, cases = random.Random(3), 0
    for _ in range(40):
        parents = {f"p{k}": rng.randint(5, 120) for k in range(rng.randint(1, 6))}
        ranked = [(f"c{k}", rng.choice(list(parents))) for k in range(rng.randint(1, 10))]
        budget = rng.choice([0, 50, 120, 200, 400])
        expected, spent = [], 0
        for _, parent in ranked:
            if parent in expected:
                continue
            if spent + parents[parent] > budget:
                break
            expected.append(parent)
            spent += parents[parent]
        got = list(fn([c for c, _ in ranked], dict(ranked), dict(parents), budget))
        if got != expected:
            raise NotYet(
                f"children {[c for c, _ in ranked]} -> parents {[p for _, p in ranked]}, "
                f"tokens {parents}, budget {budget}: expected {expected}, got {short(got)}"
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


# --- 07.1: reciprocal rank -----------------------------------------------------------------------


def _check_reciprocal_rank(fn: Callable) -> int:

    rng, cases = random.Random(7), 0
    for _ in range(40):
        ranked = rng.sample([f"d{k}" for k in range(12)], rng.randint(0, 8))
        gold = set(rng.sample([f"d{k}" for k in range(12)], rng.randint(0, 3)))
        got, expected = fn(ranked, gold), reciprocal_rank(ranked, gold)
        if not isinstance(got, int | float) or abs(got - expected) > 1e-12:
            raise NotYet(
                f"ranked {ranked}, gold {sorted(gold)}: expected {expected}, got {short(got)}"
            )
        cases += 1
    return cases


# --- 08.1: heading levels from font sizes ---------------------------------------------------------


def _check_heading_levels(fn: Callable) -> int:

    rng, cases = random.Random(8), 0
    for _ in range(60):
        palette = rng.sample(
            [8.0, 9.5, 10.0, 11.0, 12.0, 13.0, 14.0, 16.0, 18.0, 20.0, 24.0, 28.0, 32.0],
            rng.randint(1, 9),
        )
        sizes = [rng.choice(palette) for _ in range(rng.randint(1, 300))]
        got, expected = fn(sizes), heading_levels(sizes)
        if got != expected:
            raise NotYet(
                f"sizes {short(sorted(set(sizes)))} "
                f"(the most common {max(set(sizes), key=sizes.count)}): "
                f"expected {expected}, got {short(got)}"
            )
        cases += 1
    return cases


# --- 09.1 and 09.2: pooling token vectors --------------------------------------------------------


def _check_masked_mean(fn: Callable) -> int:
    rng, cases = np.random.default_rng(9), 0
    for _ in range(30):
        texts, tokens, dim = (int(n) for n in rng.integers(1, 6, size=3) * (1, 3, 2))
        vectors = rng.normal(size=(texts, tokens, dim)).astype(np.float32)
        lengths = rng.integers(1, tokens + 1, size=texts)
        mask = (np.arange(tokens)[None, :] < lengths[:, None]).astype(np.int64)
        expected = mean_pool(vectors, mask).astype(np.float64)
        got = fn(vectors.copy(), mask.copy())
        if not close(got, expected):
            raise NotYet(
                f"{texts} texts of {tokens} positions, real tokens {lengths.tolist()}: expected "
                f"{rounded(expected)}, got {rounded(got)} "
                "(padding must not count; scale each mean to length 1)"
            )
        cases += 1
    return cases


def _check_pool_span(fn: Callable) -> int:
    rng, cases = np.random.default_rng(10), 0
    for _ in range(40):
        n, dim = int(rng.integers(1, 9)), int(rng.integers(2, 5))
        widths, gaps = rng.integers(1, 5, size=n), rng.integers(0, 2, size=n)
        starts = np.cumsum(gaps + np.concatenate([[0], widths[:-1]]))
        offsets = np.stack([starts, starts + widths], axis=1)
        vectors = rng.normal(size=(n, dim)).astype(np.float32)
        points = [int(p) for p in offsets.ravel()] + [int(offsets[-1, 1]) + 2]
        start, end = sorted(int(p) for p in rng.choice(points, size=2))
        expected = pool_spans(TokenVectors(vectors, offsets), [(start, end)])[0].astype(np.float64)
        got = fn(offsets.copy(), vectors.copy(), start, end)
        if not close(got, expected):
            raise NotYet(
                f"tokens at {offsets.tolist()}, span {start}-{end}: expected "
                f"{rounded(expected)}, got {rounded(got)} "
                "(a token belongs if its first character is in start <= position < end)"
            )
        cases += 1
    return cases


CHECKS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "01.4": ("line_windows(text, size) -> list of (start, end)", _check_line_windows),
    "02.1": ("repack_tokens(text, spans, budget) -> list of (start, end)", _check_repack_tokens),
    "03.3": (
        "parents_within(ranked_children, parent_of, parent_tokens, budget) -> list of parent ids",
        _check_parents_within,
    ),
    "04.3": ("buffered(texts, buffer_size) -> list of str", _check_buffered),
    "05.1": ("column_value(header, row) -> str", _check_column_value),
    "06.3": ("fixed_path_chunks(text) -> list of chunk texts", _check_fixed_path_chunks),
    "07.1": ("reciprocal_rank(ranked_ids, gold) -> float", _check_reciprocal_rank),
    "08.1": ("heading_levels(sizes) -> dict of size to level", _check_heading_levels),
    "09.1": ("masked_mean(vectors, mask) -> array (texts, dimensions)", _check_masked_mean),
    "09.2": ("pool_span(offsets, vectors, start, end) -> array (dimensions,)", _check_pool_span),
    **CHECKS_10,  # notebook 10's, in a module of their own
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
