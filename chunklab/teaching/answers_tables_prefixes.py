"""The answer exercises of companions 05c and 05b (a table's room): each
expected answer computed from the library when asked, and the plausible wrong answers each
refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.tables import LinearizedChunker, find_tables, orphans
from chunklab.contracts import Document
from chunklab.documents.series import load_document
from chunklab.teaching.answers import Form
from chunklab.teaching.exercises_table_room import room_needed  # 05b.1's rule, for 05b.2's hint
from chunklab.tokens.counters import cl100k


@lru_cache(maxsize=512)
def policy_linearized_at(size: int) -> tuple[int, int]:
    """(rows not kept whole beside their header, orphans) of LinearizedChunker on the travel
    policy at `size` characters."""
    doc = load_document("travel_policy")
    chunks = LinearizedChunker(size=size).split(doc)
    lines = [{line.strip() for line in c.text.split("\n")} for c in chunks]  # as 05c's not_kept
    tables = find_tables(doc.text)
    kept = [any(t.header in held and r in held for held in lines) for t in tables for r in t.rows]
    lost = kept.count(False)
    return lost, orphans(chunks, doc)


def linearized_size_keeping_policy_rows() -> int:
    """05c.2: the size from which on (to 300 characters) LinearizedChunker keeps every row of the
    travel policy's table whole beside its header."""
    return max(s for s in range(10, 301) if policy_linearized_at(s)[0]) + 1


def _policy_blind_sizes() -> list[int]:
    """The sizes from 60 to 300 at which orphans() reads 0 on the travel policy while a row is
    not kept whole beside its header."""
    return [
        s for s in range(60, 301) if policy_linearized_at(s)[0] and not policy_linearized_at(s)[1]
    ]


def policy_size_and_hidden_rows() -> tuple[int, int]:
    """05c.2: (the size from which on every row is kept, the rows not kept summed over the sizes
    from 60 to 300 where orphans() reads 0). The first number is section 1's prediction; the second
    needs rows counted at each size (the smallest such size was the first size with 0 orphans, so
    the orphan count alone gave it; how many such sizes there are matched the notebook's own)."""
    hidden = sum(policy_linearized_at(s)[0] for s in _policy_blind_sizes())
    return linearized_size_keeping_policy_rows(), hidden


def _widest_pair_tokens(doc: Document) -> int:
    """A document's widest breadcrumb + header + row, in tokens, as linearize mode writes them."""
    sections = MarkdownChunker(max_tokens=2000).split(doc)
    return max(
        cl100k(c.metadata["prefix"] + "\n\n" + t.header + "\n" + row)
        for t in find_tables(doc.text)
        for row in t.rows
        for c in sections
        if t.header in c.text and row in c.text
    )


def _policy_size_misses() -> dict[Any, str]:
    right = linearized_size_keeping_policy_rows()
    doc = load_document("travel_policy")
    pairs = [(t.header, row) for t in find_tables(doc.text) for row in t.rows]
    misses: dict[Any, str] = {
        max(len(row) for _, row in pairs): "that is the longest row alone; the chunk holds its "
        "header too, glued to it by a newline",
        max(len(h) + len(r) for h, r in pairs): "off by one: the pair is header, newline, row; "
        "count the newline between them",
        max(cl100k(h + "\n" + r) for h, r in pairs): "that is the longest header + row in tokens; "
        "LinearizedChunker's size counts characters",
        197: "that is the cloud.gov page's longest header + row (section 1); this asks about "
        "the travel policy",
    }
    for size in range(1, right):  # from 1: orphans() reads 0 there, the slip the prompt warns of
        lost, left = policy_linearized_at(size)
        why = f"at that size {lost} row(s) are not kept whole beside the header"
        if not left:
            why += (
                ", yet orphans() reports 0: LinearizedChunker writes the header above each piece "
                "of a row it cuts, so no piece is an orphan. Count rows kept (row_fates), not "
                "orphans"
            )
        misses.setdefault(size, why)
    for size in range(right + 1, 301):
        misses.setdefault(
            size,
            "every row is kept there, but a smaller size keeps them too: stop at the first size "
            "from which no row is lost",
        )
    return misses


def _pair_hint(
    answer: Any,
    solution: Any,
    unit: str,
    misses: Callable[[], dict],
    sweep: str,
    count_misses: Callable[[], dict],
    count: str,
) -> str:
    """05c.2 and 05b.2 ask a pair, (from which `unit` on no row is lost, a count of rows not kept
    over the sweep): the hint when the answer is no such pair, the right pair swapped, its first
    number wrong (named by `misses`, else `sweep`), or its second (named by `count_misses`, else
    `count`)."""
    if not (isinstance(answer, (tuple, list)) and len(answer) == 2):
        return f"answer two ints, (from which {unit} on, a number of rows)"
    first, second = answer
    if isinstance(first, str) or isinstance(second, str):
        return f"answer two ints, not strings: ({first!s}, {second!s}) without the quotes"
    if (second, first) == tuple(solution) and first != second:
        return f"the two numbers are swapped: from which {unit} on first, then the rows"
    if first != solution[0]:
        return misses().get(first, sweep)
    return count_misses().get(second, count)


def _policy_hint(answer: Any, solution: Any) -> str:
    """05c.2: name the slip in whichever of the two numbers is wrong."""
    sweep = "sweep every size up to 300 with row_fates"
    count = (
        "at each size from 60 to 300 where orphans() gives 0, count the rows not kept whole "
        "beside their header (not_kept), and add the counts up"
    )
    return _pair_hint(
        answer, solution, "size", _policy_size_misses, sweep, _policy_hidden_slips, count
    )


@lru_cache(maxsize=1)
def _policy_hidden_slips() -> dict[int, str]:
    """Why a wrong second number of 05c.2 is wrong: the orphan count's answer, a size for rows, one
    size's rows, every size's, or section 1's figure."""
    blind = _policy_blind_sizes()
    lost = [policy_linearized_at(s)[0] for s in blind]
    one = "that is the rows lost at one of those sizes; add the rows at every size where "
    slips: dict[int, str] = {
        0: "0 is what orphans alone say: LinearizedChunker writes the header above each piece of a "
        "row it cuts, so no piece is an orphan. At each size count the rows no chunk holds whole "
        "beside their header as well",
        sum(lost[:1]) * len(blind): f"that counts {lost[0]} rows at each of the {len(blind)} "
        "sizes; fewer are lost as the size grows: count them at each size",
        20: "that is section 1's figure on its five documents (4, 4, 4, 4, 1, 1, 1, 1); this "
        "asks the travel policy's: sweep it",
        len(blind): "that is how many sizes show 0 orphans while a row is lost; the question "
        "asks how many rows they lose, summed",
        sum(policy_linearized_at(s)[0] for s in range(60, 301)): "that sums every size that "
        "loses a row; the question asks only those where orphans() reads 0",
    }
    for n in lost:
        slips.setdefault(n, one + "orphans() reads 0")
    for s in blind:
        slips.setdefault(s, "that is a size; the question asks how many rows are not kept there")
    slips.pop(policy_size_and_hidden_rows()[1], None)
    return slips


@lru_cache(maxsize=1024)
def _linearize_losses(name: str, max_tokens: int) -> tuple[int, int]:
    """(orphans, rows not kept whole beside their header) of linearize mode on a series document."""
    doc = load_document(name)
    chunks = MarkdownChunker(max_tokens=max_tokens, table_mode="linearize").split(doc)
    apart = sum(
        not any(t.header in c.text and row in c.text for c in chunks)
        for t in find_tables(doc.text)
        for row in t.rows
    )
    return orphans(chunks, doc), apart


def linearize_budget_from_which_gds_copy_keeps_rows() -> int:
    """The smallest budget from 30 to 130 at which linearize mode orphans no row and keeps every
    row whole with its header on the series' copy of the GDS page. The smallest with 0 orphans
    comes earlier and hides a row cut in two: only rows kept tell them apart. (The last orphan + 1
    gives the same budget here: just under it the widest row fits alone, without its header.)"""
    return min(b for b in range(30, 131) if not any(_linearize_losses("sensitive_code", b)))


def _gds_copy_blind_budgets() -> list[int]:
    """The budgets from 30 to 130 that leave 0 orphans on the GDS copy yet a row not kept."""
    losses = {b: _linearize_losses("sensitive_code", b) for b in range(30, 131)}
    return [b for b, (left, apart) in losses.items() if left == 0 and apart > 0]


def gds_copy_budget_and_rows_apart() -> tuple[int, int]:
    """05b.2: (the budget from which on, rows_apart summed over every budget from 30 to 130).
    Not the smallest budget with 0 orphans and a row apart: it is the first with 0 orphans, so
    the orphan count alone gave it; nor how many such budgets: one, as in section 1's list. The
    sum needs rows counted at every budget: the orphans summed come one short."""
    apart = sum(_linearize_losses("sensitive_code", b)[1] for b in range(30, 131))
    return linearize_budget_from_which_gds_copy_keeps_rows(), apart


@lru_cache(maxsize=256)
def _rows_mode_losses(name: str, max_tokens: int) -> tuple[int, int]:
    """(orphans, rows not kept) of rows mode, the default, on a series document."""
    doc = load_document(name)
    chunks = MarkdownChunker(max_tokens=max_tokens).split(doc)
    apart = sum(
        not any(t.header in c.text and row in c.text for c in chunks)
        for t in find_tables(doc.text)
        for row in t.rows
    )
    return orphans(chunks, doc), apart


def _budget_slips() -> dict[int, str]:
    """Why each wrong first number is wrong, named by its slip (a first zero, the last budget
    that loses a row, another file's or another mode's figure); a budget that is no slip gets
    the sweep's hint, which says no direction to the answer."""
    right = linearize_budget_from_which_gds_copy_keeps_rows()
    first_zero = min(b for b in range(8, 131) if not _linearize_losses("sensitive_code", b)[0])
    slips: dict[int, str] = {
        first_zero: "that is the smallest budget with 0 orphans, what orphans alone say: a row "
        "cut in two leaves pieces that are not rows. Count rows_apart at each budget too"
    }
    rows_from = max(b for b in range(8, 131) if any(_rows_mode_losses("sensitive_code", b))) + 1
    slips[rows_from] = (
        "that is rows mode's budget (MarkdownChunker's default table_mode); the question asks "
        "table_mode='linearize'"
    )
    slips[68] = (
        "that is section 1's figure for the GDS file it reads; the series' copy differs: sweep "
        "load_document('sensitive_code') itself"
    )
    doc = load_document("sensitive_code")
    slips[room_needed(doc.text, cl100k)] = (
        "that is 05b.1's rule on the source text, whose first heading is a template tag "
        "(# <%= current_page.data.title %>): the chunk's breadcrumb writes the title, "
        f"{doc.title!r}, in its place, so measure the breadcrumb as the chunk writes it, or sweep"
    )
    slips[right - 1] = (
        "that is the last budget that loses a row (the sweep's last orphan or row not kept); the "
        "question asks from which budget on none is lost"
    )
    slips.pop(right, None)
    return slips


def _gds_copy_hint(answer: Any, solution: Any) -> str:
    """05b.2: name the slip in whichever of the two numbers is wrong."""
    sweep = (
        "not the budget from which on no row is lost: sweep every budget from 30 to 130 in "
        "linearize mode, counting orphans and rows_apart at each"
    )
    count = (
        "at each budget from 30 to 130 (table_mode='linearize') count rows_apart, the rows no "
        "chunk holds whole beside their header, and add the counts up"
    )
    return _pair_hint(answer, solution, "budget", _budget_slips, sweep, _gds_apart_slips, count)


@lru_cache(maxsize=1)
def _gds_apart_slips() -> dict[int, str]:
    """Why a wrong second number of 05b.2 is wrong: the orphans summed, a blind budget or its
    count, rows mode's sum, or a sum over part of the sweep."""
    losses = {b: _linearize_losses("sensitive_code", b) for b in range(30, 131)}
    blind = _gds_copy_blind_budgets()
    slips: dict[int, str] = {
        sum(left for left, _ in losses.values()): "that is orphans() summed: at a budget where "
        "a row is cut in two its pieces are no orphans. Count rows_apart at each budget",
        0: "0 is what orphans alone say at one budget; the question asks rows_apart summed over "
        "every budget from 30 to 130",
        len(blind): "that is how many budgets show 0 orphans with a row apart; the question asks "
        "rows_apart summed over every budget",
        sum(_rows_mode_losses("sensitive_code", b)[1] for b in range(30, 131)): "that is rows "
        "mode's sum (MarkdownChunker's default table_mode); the question asks "
        "table_mode='linearize'",
    }
    for b in blind:
        slips.setdefault(
            b,
            "that is a budget, the one where orphans() reads 0 with a row apart; "
            "the question asks rows_apart summed over every budget",
        )
    slips.pop(gds_copy_budget_and_rows_apart()[1], None)
    return slips


SOLUTIONS_TABLES_PREFIXES: dict[str, tuple[str, Callable[[], Any]]] = {
    "05c.2": ("two ints: (size, rows)", policy_size_and_hidden_rows),
    "05b.2": ("two ints: (max_tokens, rows)", gds_copy_budget_and_rows_apart),
}

FORMS_TABLES_PREFIXES: dict[str, Form] = {}


HINTS_TABLES_PREFIXES: dict[str, Callable[[Any, Any], str]] = {
    "05c.2": _policy_hint,
    "05b.2": _gds_copy_hint,
}
