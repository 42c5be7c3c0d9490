"""Checks for the coding exercises: the learner writes a function, the check runs it on cases it
has not seen.

Each check builds its own cases from a fixed seed (so a stored notebook output never changes) and
judges the learner's answer by what a correct answer must do: against the library where the
library does the same thing, by the exercise's rule where it does not. Any correct function
passes. Most checks live in `exercises_*` modules of their own, registered here.

A wrong answer, or one that raises, gets "not yet: …" naming the first case it got wrong; a check
never raises on the learner's behalf. `chunklab.teaching.selfcheck.check("NN.x", your_function)` is
the entry point the notebooks use.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.semantic import with_neighbours
from chunklab.teaching.checking import Cases, NotYet, Verdict, short
from chunklab.teaching.exercises_benchmark import CHECKS_BENCHMARK
from chunklab.teaching.exercises_block_parent import check_parent_block
from chunklab.teaching.exercises_bold_table import CHECKS_BOLD_TABLE
from chunklab.teaching.exercises_budget_size import CHECKS_BUDGET_SIZE
from chunklab.teaching.exercises_chance_floor import CHECKS_CHANCE_FLOOR
from chunklab.teaching.exercises_child_repeats import CHECKS_CHILD_REPEATS
from chunklab.teaching.exercises_code import CHECKS_CODE
from chunklab.teaching.exercises_context_fit import CHECKS_CONTEXT_FIT
from chunklab.teaching.exercises_cut_changes import CHECKS_CUT_CHANGES
from chunklab.teaching.exercises_family_power import CHECKS_FAMILY_POWER
from chunklab.teaching.exercises_family_reading import CHECKS_FAMILY_READING
from chunklab.teaching.exercises_family_size import CHECKS_FAMILY_SIZE
from chunklab.teaching.exercises_fetch_factor import CHECKS_FETCH_FACTOR
from chunklab.teaching.exercises_gain_split import CHECKS_GAIN_SPLIT
from chunklab.teaching.exercises_heading_glue import CHECKS_HEADING_GLUE
from chunklab.teaching.exercises_heading_levels import CHECKS_HEADING_LEVELS
from chunklab.teaching.exercises_headings_apart import CHECKS_HEADINGS_APART
from chunklab.teaching.exercises_line_windows import CHECKS_LINE_WINDOWS
from chunklab.teaching.exercises_llm_pass import CHECKS_LLM_PASS
from chunklab.teaching.exercises_llm_reply import check_piece_numbers
from chunklab.teaching.exercises_measures import CHECKS_MEASURES
from chunklab.teaching.exercises_never_read import CHECKS_NEVER_READ
from chunklab.teaching.exercises_numbered_titles import CHECKS_NUMBERED_TITLES
from chunklab.teaching.exercises_paired_interval import CHECKS_PAIRED_INTERVAL
from chunklab.teaching.exercises_paired_rows import check_paired_differences
from chunklab.teaching.exercises_parent_budget import check_parents_within
from chunklab.teaching.exercises_parent_lift import check_lift
from chunklab.teaching.exercises_parents_windows import check_current_top_k, check_merged_windows
from chunklab.teaching.exercises_prefixes import check_fixed_path_chunks, check_heading_paths
from chunklab.teaching.exercises_read_limit import CHECKS_READ_LIMIT
from chunklab.teaching.exercises_reading import CHECKS_READING
from chunklab.teaching.exercises_refresh import CHECKS_REFRESH
from chunklab.teaching.exercises_room_edges import CHECKS_ROOM_EDGES
from chunklab.teaching.exercises_room_order import CHECKS_ROOM_ORDER
from chunklab.teaching.exercises_running_heads import CHECKS_RUNNING_HEADS
from chunklab.teaching.exercises_safe_size import CHECKS_SAFE_SIZE
from chunklab.teaching.exercises_sign_test import CHECKS_SIGN_TEST
from chunklab.teaching.exercises_structural import check_closes_fence, check_repack_tokens
from chunklab.teaching.exercises_table_blank_line import CHECKS_TABLE_BLANK_LINE
from chunklab.teaching.exercises_table_room import CHECKS_TABLE_ROOM
from chunklab.teaching.exercises_tables import check_column_value, check_linearize_any
from chunklab.teaching.exercises_tenants import CHECKS_TENANTS
from chunklab.teaching.exercises_thresholds import (
    buffered_window_slip,
    check_buffer_edges,
    check_threshold_for,
    empty_texts_skipped,
    own_windows,
)
from chunklab.teaching.exercises_verdict_family import CHECKS_VERDICT_FAMILY
from chunklab.teaching.exercises_wide_buffer import CHECKS_WIDE_BUFFER
from chunklab.teaching.exercises_won_lost import CHECKS_WON_LOST
from chunklab.teaching.exercises_yardstick_flaws import CHECKS_YARDSTICK_FLAWS
from chunklab.teaching.fusion_checks import CHECKS_FUSION

# --- 04.3: the sentence buffer -------------------------------------------------------------------


def _padded_slips(texts: list[str], buffer_size: int) -> dict[str, list[str]]:
    """04.3's windows with the ends padded by empty texts (extra spaces), and padded then stripped
    (which also strips each text's own edge whitespace): at the edges a window holds fewer texts."""
    pad = [""] * buffer_size
    padded = [" ".join((pad + texts + pad)[i : i + 2 * buffer_size + 1]) for i in range(len(texts))]
    return {
        "the ends padded with empty texts: at the edges take fewer texts, not empty ones": padded,
        "the ends padded with empty texts, then stripped: at the edges take fewer texts, "
        "and strip nothing": [w.strip() for w in padded],
    }


def _buffered_slip(texts: list[str], buffer_size: int, got: Any) -> str:
    """What a wrong `buffered` answer most likely did, named from the usual slips."""
    n = len(texts)
    if not isinstance(got, list) or len(got) != n:
        return f"return one string per text ({n}), not {short(got)}"
    join = " ".join
    slips = {
        "only the texts after each one (take buffer_size before it too)": [
            join(texts[i : i + buffer_size + 1]) for i in range(n)
        ],
        "only the texts before each one (take buffer_size after it too)": [
            join(texts[max(0, i - buffer_size) : i + 1]) for i in range(n)
        ],
        "one text too few after each (a slice ends before its stop: i + buffer_size + 1)": [
            join(texts[max(0, i - buffer_size) : i + buffer_size]) for i in range(n)
        ],
        "one text too few before each (start at i - buffer_size, not i - buffer_size + 1)": [
            join(texts[max(0, i - buffer_size + 1) : i + buffer_size + 1]) for i in range(n)
        ],
        "a negative start wraps round to the end of the list (clamp it with max(0, ...))": [
            join(texts[i - buffer_size : i + buffer_size + 1]) for i in range(n)
        ],
    }
    if n:
        slips[
            "the neighbours wrap round the ends of the list (index % len): at the edges take "
            "fewer texts, never texts from the other end"
        ] = [
            join(texts[j % n] for j in range(i - buffer_size, i + buffer_size + 1))
            for i in range(n)
        ]
    own = "each text's own sentence is missing: it belongs in its window, between its neighbours"
    slips[own] = [
        join(texts[max(0, i - buffer_size) : i] + texts[i + 1 : i + buffer_size + 1])
        for i in range(n)
    ]
    slips["joined by newlines: join the texts with single spaces"] = [
        "\n".join(texts[max(0, i - buffer_size) : i + buffer_size + 1]) for i in range(n)
    ]
    slips.update(_padded_slips(texts, buffer_size))
    slips.update(empty_texts_skipped(texts, buffer_size))
    if buffer_size != 1:
        slips["a buffer of 1 whatever buffer_size says: use the buffer_size argument"] = [
            join(texts[max(0, i - 1) : i + 2]) for i in range(n)
        ]
    for slip, wrong in slips.items():
        if got == wrong:
            return slip
    squeezed = [e.replace(" ", "") for e in with_neighbours(texts, buffer_size)]
    if [str(g).replace(" ", "") for g in got] == squeezed:
        return "the right texts, but join them with single spaces"
    return buffered_window_slip(texts, buffer_size, got)


def _check_buffered(fn: Callable) -> int:
    rng, cases = random.Random(4), 0
    for _ in range(30):
        texts = [f"s{k}" for k in range(rng.randint(0, 9))]
        buffer_size = rng.randint(0, 4)
        given = list(texts)
        got, expected = own_windows(fn, given, buffer_size), with_neighbours(texts, buffer_size)
        if given != texts:
            raise NotYet(
                f"your function changed its input: texts={texts} became {short(given)}; "
                "build a new list and leave texts as it is"
            )
        got = list(got) if isinstance(got, (list, tuple)) else got
        if got != expected:
            raise NotYet(
                f"texts={texts}, buffer_size={buffer_size}: expected {expected}, got {short(got)}: "
                + _buffered_slip(texts, buffer_size, got)
            )
        cases += 1
    return cases + check_buffer_edges(fn, _buffered_slip)  # repeats, whitespace at the edges


CHECKS: dict[str, tuple[str, Callable[[Callable], int | Cases]]] = {
    **CHECKS_LINE_WINDOWS,  # 01d.2: teaching.exercises_line_windows
    **CHECKS_BUDGET_SIZE,  # 01c.1: teaching.exercises_budget_size
    **CHECKS_SIGN_TEST,  # 01b.1: teaching.exercises_sign_test
    **CHECKS_PAIRED_INTERVAL,  # 01b.3: teaching.exercises_paired_interval
    "02.1": ("repack_tokens(text, spans, budget) -> list of (start, end)", check_repack_tokens),
    "02b.1": ("closes_fence(opening, line) -> bool", check_closes_fence),
    **CHECKS_TABLE_BLANK_LINE,  # 02d.1: teaching.exercises_table_blank_line
    **CHECKS_NUMBERED_TITLES,  # 02d.2: teaching.exercises_numbered_titles
    "03.1": (
        "lift(hits, parent_of, max_parents) -> list of (parent_id, child_id, score)",
        check_lift,
    ),
    "03.2": (
        "parents_within(ranked_children, parent_of, parent_tokens, budget) -> list of parent ids",
        check_parents_within,
    ),
    "03b.2": (
        "merged_windows(windows) -> list of (first, last) sentence ranges",
        check_merged_windows,
    ),
    **CHECKS_FETCH_FACTOR,  # 03c.1: teaching.exercises_fetch_factor
    "03c.2": ("current_top_k(scores, versions, k) -> list of ids", check_current_top_k),
    "03d.2": ("parent_block(child, blocks) -> block id", check_parent_block),
    **CHECKS_FAMILY_READING,  # 03d.3: teaching.exercises_family_reading
    **CHECKS_REFRESH,  # 03e.1 and 03e.2: teaching.exercises_refresh, exercises_fingerprint
    **CHECKS_TENANTS,  # 03f.1: teaching.exercises_tenants
    **CHECKS_CHILD_REPEATS,  # 03h.1: teaching.exercises_child_repeats
    "04.3": ("buffered(texts, buffer_size) -> list of str", _check_buffered),
    **CHECKS_WIDE_BUFFER,  # 04.3b: teaching.exercises_wide_buffer
    "04b.1": ("piece_numbers(reply) -> list of int", check_piece_numbers),
    "04c.1": ("threshold_for(similarities, percentile) -> float", check_threshold_for),
    **CHECKS_CUT_CHANGES,  # 04c.2: teaching.exercises_cut_changes
    **CHECKS_CHANCE_FLOOR,  # 04d.1: teaching.exercises_chance_floor
    **CHECKS_FAMILY_POWER,  # 04e.1: teaching.exercises_family_power
    **CHECKS_VERDICT_FAMILY,  # 07.2: teaching.exercises_verdict_family
    **CHECKS_LLM_PASS,  # 04b.2: teaching.exercises_llm_pass
    "05.1": ("column_value(header, row) -> str", check_column_value),
    "05.2": ("linearize_any(text) -> str", check_linearize_any),
    **CHECKS_SAFE_SIZE,  # 05c.1: teaching.exercises_safe_size
    **CHECKS_TABLE_ROOM,  # 05b.1: teaching.exercises_table_room
    "06.1": ("heading_paths(headings) -> list of str", check_heading_paths),
    "06.2": ("fixed_path_chunks(text) -> list of chunk texts", check_fixed_path_chunks),
    "06b.1": ("paired_differences(rows, a, b, measure) -> dict", check_paired_differences),
    **CHECKS_FAMILY_SIZE,  # 06b.2: teaching.exercises_family_size
    **CHECKS_CONTEXT_FIT,  # 06c.1: teaching.exercises_context_fit
    **CHECKS_MEASURES,  # notebooks 07 to 09: teaching.exercises_measures
    **CHECKS_NEVER_READ,  # 09.2: teaching.exercises_never_read
    **CHECKS_READ_LIMIT,  # 09d.1: teaching.exercises_read_limit
    **CHECKS_READING,  # 07c.2 and 07b.1: teaching.exercises_reading
    **CHECKS_BENCHMARK,  # notebook 10's, in a module of their own
    **CHECKS_FUSION,  # 10b's: teaching.fusion_checks
    **CHECKS_RUNNING_HEADS,  # 08b's: teaching.exercises_running_heads
    **CHECKS_BOLD_TABLE,  # 08.2: teaching.exercises_bold_table
    **CHECKS_YARDSTICK_FLAWS,  # 08c.1: teaching.exercises_yardstick_flaws
    **CHECKS_HEADING_LEVELS,  # 08d.1: teaching.exercises_heading_levels
    **CHECKS_CODE,  # notebook 11's (chunking code): teaching.exercises_code
    **CHECKS_WON_LOST,  # 01.1: teaching.exercises_won_lost
    **CHECKS_HEADINGS_APART,  # 02c.1: teaching.exercises_headings_apart
    **CHECKS_HEADING_GLUE,  # 02c.2: teaching.exercises_heading_glue
    **CHECKS_ROOM_ORDER,  # 03g.1: teaching.exercises_room_order
    **CHECKS_ROOM_EDGES,  # 03d.1: teaching.exercises_room_edges
    **CHECKS_GAIN_SPLIT,  # 03g.2: teaching.exercises_gain_split
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
    if isinstance(cases, Cases):  # the check says what its cases were
        said = f"correct on all {cases.how_many} cases: {cases.said}"
        return Verdict(True, f"Exercise {exercise}: {said}.")
    return Verdict(True, f"Exercise {exercise}: correct on all {cases} cases it had not seen.")
