"""Companion 05b's exercises refuse plausible wrong answers, each with a hint naming the slip.
05b.1 asks for section 1's test as a function of any text and counter, `room_needed`; 05b.2 for
the sweep's budget on the series' copy of the GDS page."""

import re
import sys

import pytest
from conftest import ROOT

from chunklab.teaching.exercises import verdict
from chunklab.teaching.exercises_table_room import SLIPS
from chunklab.teaching.exercises_table_room import room_needed as with_slip

sys.path.insert(0, str(ROOT))
from solutions import exercises as solutions  # noqa: E402


def _room_by_blocks(
    text, count, rows_mode=False, end="\n", marks=":- ", by_place=False, after_delimiter=None
):
    """05b.1 another way: walk the text once, keeping the heading path as a list and each table's
    header as it is met; every row's pair built and measured as it comes."""
    path, fence, header, pairs = [], False, None, []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.strip().startswith("```"):
            fence = not fence
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*$", line)
        if m and not fence:
            level = len(m.group(1))
            del path[level - 1 if by_place else len([1 for lv, _ in path if lv < level]) :]
            path.append((len(m.group(1)), m.group(2)))
            continue
        is_pipe = line.lstrip().startswith("|")
        if (
            is_pipe
            and i + 1 < len(lines)
            and set(lines[i + 1].replace("|", "").strip()) <= set(marks)
            and "-" in lines[i + 1]
        ):
            delimiter_end = end if after_delimiter is None else after_delimiter
            header = line + end + (lines[i + 1] + delimiter_end if rows_mode else "")
            continue
        if header and is_pipe and not (set(line.replace("|", "").strip()) <= set(":- ")):
            crumb = " > ".join(t for _, t in path)
            pairs.append((crumb + "\n\n" if crumb else "") + header + line)
        elif not is_pipe:
            header = None
    return max((count(p) for p in pairs), default=0)


def test_05b_1_accepts_two_correct_forms():
    for fn in (solutions.room_needed, _room_by_blocks):
        result = verdict("05b.1", fn)
        assert result.passed, result.message


@pytest.mark.parametrize("slip", sorted(SLIPS))
def test_05b_1_names_each_slip(slip):
    def wrong(text, count, rows_mode=False):
        return with_slip(text, count, rows_mode, **{slip: True})

    result = verdict("05b.1", wrong)
    assert not result.passed and SLIPS[slip] in result.message, result.message


def test_05b_1_a_header_line_without_its_newline_is_named_as_such():
    """Leaving out the '\\n' after the header line gives the same width as a single newline after
    the breadcrumb: the hint names the header's newline, not the blank line alone."""

    def no_newline(text, count, rows_mode=False):
        return _room_by_blocks(text, count, rows_mode, end="")

    result = verdict("05b.1", no_newline)
    assert not result.passed and SLIPS["header_newline"] in result.message, result.message


def test_05b_1_a_function_that_counts_in_cl100k_is_told_to_use_count():
    from chunklab.tokens.counters import cl100k

    def in_cl100k(text, count, rows_mode=False):
        return _room_by_blocks(text, cl100k, rows_mode)

    result = verdict("05b.1", in_cl100k)
    assert not result.passed and SLIPS["own_count"] in result.message, result.message


def test_05b_1_refuses_the_old_route_and_a_sweep_of_the_chunker():
    """The old exercise's greedy column groups answer nothing here; a function that finds the
    budget by sweeping MarkdownChunker is refused: the test is measured before any cut."""
    from chunklab.chunkers.markdown import MarkdownChunker

    def column_groups(n_columns, width):
        rest = list(range(1, n_columns))
        return [[0, *rest[i : i + width - 1]] for i in range(0, len(rest), width - 1)] or [[0]]

    assert not verdict("05b.1", column_groups).passed

    def by_sweep(text, count, rows_mode=False):
        MarkdownChunker(max_tokens=50).split(text)
        return solutions.room_needed(text, count, rows_mode)

    result = verdict("05b.1", by_sweep)
    assert not result.passed and "MarkdownChunker" in result.message, result.message


def test_05b_2_names_the_first_zero_the_orphans_only_count_and_the_other_slips():
    """Linearize mode on the series' copy of the GDS page: (the budget from which on, rows_apart
    summed over every budget from 30 to 130). The orphans-only method gets the budget right and
    the sum one short, and is refused; so are the first zero, the last budget that loses a row,
    the other GDS file's figure and rows mode's budget, each with the hint for its slip."""
    from chunklab.documents.series import load_document
    from chunklab.teaching import answers_tables_prefixes as answers
    from chunklab.teaching import selfcheck

    right, blind = selfcheck.SOLUTIONS["05b.2"][1]()
    assert selfcheck.verdict_for("05b.2", (right, blind)).endswith("correct.")
    assert right == answers._widest_pair_tokens(load_document("sensitive_code"))
    assert blind == sum(answers._linearize_losses("sensitive_code", b)[1] for b in range(30, 131))
    assert "what orphans alone say" in selfcheck.verdict_for("05b.2", (right, 0))
    first_zero = min(
        b for b in range(8, 131) if answers._linearize_losses("sensitive_code", b)[0] == 0
    )
    assert first_zero < right - 1
    assert "what orphans alone say" in selfcheck.verdict_for("05b.2", (first_zero, blind))
    assert "last budget that loses a row" in selfcheck.verdict_for("05b.2", (right - 1, blind))
    assert "series' copy differs" in selfcheck.verdict_for("05b.2", (68, blind))
    assert "rows mode" in selfcheck.verdict_for("05b.2", (78, blind))
    assert "two ints" in selfcheck.verdict_for("05b.2", right)
    assert "swapped" in selfcheck.verdict_for("05b.2", (blind, right))


def test_05b_2_second_number_needs_rows_apart_not_the_orphan_count():
    """05b.2's second number was how many budgets hide a row cut in two (1, as section 1 prints),
    then the smallest such budget (66): the first budget with 0 orphans, so the orphan count alone
    gave it. It now asks rows_apart summed over the sweep: the orphans summed (one short), that
    budget, the count of such budgets and rows mode's sum are refused, each named."""
    from chunklab.teaching import answers_tables_prefixes as answers
    from chunklab.teaching import selfcheck

    right, apart = selfcheck.SOLUTIONS["05b.2"][1]()
    losses = {b: answers._linearize_losses("sensitive_code", b) for b in range(30, 131)}
    (blind,) = [b for b, (left, rows) in losses.items() if left == 0 and rows]
    assert blind == min(b for b, (left, _) in losses.items() if left == 0)  # the old shortcut
    line = selfcheck.verdict_for("05b.2", (right, blind))
    assert "not quite" in line and "that is a budget" in line, line
    orphans_summed = sum(left for left, _ in losses.values())
    assert orphans_summed == apart - 1
    assert "orphans() summed" in selfcheck.verdict_for("05b.2", (right, orphans_summed))
    assert "how many budgets" in selfcheck.verdict_for("05b.2", (right, 1))
    rows_mode = sum(answers._rows_mode_losses("sensitive_code", b)[1] for b in range(30, 131))
    assert "rows mode" in selfcheck.verdict_for("05b.2", (right, rows_mode))


def test_05b_2_hints_say_no_direction_to_the_budget():
    """A budget that is no named slip gets the sweep's hint, the same below the answer as above
    it: no "a row remains there" or "a smaller budget also works" to walk to the number."""
    from chunklab.teaching import selfcheck

    right, blind = selfcheck.SOLUTIONS["05b.2"][1]()
    budgets = (right - 2, right + 1, right + 2)  # no named slip among them
    hints = {b: selfcheck.verdict_for("05b.2", (b, blind)) for b in budgets}
    for hint in hints.values():
        assert not any(w in hint for w in ("smaller", "larger", "upward", "remain", "still")), hint
        assert "sweep every budget" in hint, hint
    assert len({hint.replace(str((b, blind)), "") for b, hint in hints.items()}) == 1, hints


def test_05b_2_first_number_needs_rows_kept():
    """The first number is the smallest budget that loses no row. Orphans alone answer the
    smallest budget with 0 orphans, where a row is cut in two: refused, with a hint that names
    orphans alone and asks for rows_apart. (The last orphan + 1 is the right budget on every
    series document: just under it the widest row fits alone, orphaned, so it is no slip.)"""
    from chunklab.teaching import answers_tables_prefixes as answers
    from chunklab.teaching import selfcheck

    right, blind = selfcheck.SOLUTIONS["05b.2"][1]()
    sweep = {b: answers._linearize_losses("sensitive_code", b) for b in range(30, 131)}
    orphans_only = min(b for b, (left, _) in sweep.items() if left == 0)
    assert sweep[orphans_only][1] > 0 and orphans_only < right
    hint = selfcheck.verdict_for("05b.2", (orphans_only, blind))
    assert "what orphans alone say" in hint and "rows_apart" in hint, hint
    assert max(b for b, (left, _) in sweep.items() if left) + 1 == right


@pytest.mark.parametrize("which", ["first", "last"])
def test_05b_1_a_function_that_measures_one_row_per_table_is_refused(which):
    """A function that measures only the first (or the last) row of each table passed while every
    test document's widest pair sat in a one-row section; a table whose widest row is in the
    middle refuses it, with a hint naming the slip."""

    def one_row(text, count, rows_mode=False):
        lines = text.split("\n")
        kept = []
        for i, line in enumerate(lines):  # keep, of each table's rows, only the first or the last
            piped = line.lstrip().startswith("|")
            is_row = piped and i >= 2 and lines[i - 1].lstrip().startswith("|")
            in_table = is_row and not set(line.replace("|", "").strip()) <= set(":- ")
            starts = in_table and set(lines[i - 1].replace("|", "").strip()) <= set(":- ")
            ends = in_table and not (i + 1 < len(lines) and lines[i + 1].lstrip().startswith("|"))
            if in_table and not (starts if which == "first" else ends):
                continue
            kept.append(line)
        return _room_by_blocks("\n".join(kept), count, rows_mode)

    result = verdict("05b.1", one_row)
    assert not result.passed and f"not only its {which}" in result.message, result.message


def test_05b_2_names_the_template_heading_when_05b_1s_rule_predicts_from_the_source():
    """05b.1's rule on the source text of the GDS copy reads its first heading, a template tag,
    where the chunk writes the document's title: that prediction (70, not the answer 73) gets a
    hint naming the template heading, not only its orphan count."""
    from chunklab.documents.series import load_document
    from chunklab.teaching import selfcheck
    from chunklab.teaching.exercises_table_room import room_needed
    from chunklab.tokens.counters import cl100k

    right, blind = selfcheck.SOLUTIONS["05b.2"][1]()
    predicted = room_needed(load_document("sensitive_code").text, cl100k)
    assert predicted != right
    message = selfcheck.verdict_for("05b.2", (predicted, blind))
    assert "template" in message and "title" in message, message


def test_05b_1_refuses_each_tables_longest_row_by_characters():
    """Each table's longest row in characters, its pair measured alone: right when counting
    characters, wrong in words, where a shorter row can hold more words."""
    from chunklab.teaching import exercises_table_room as room

    def longest_by_characters(text, count, rows_mode=False):
        lines, widths = text.split("\n"), [0]
        for head, rows in room._tables(lines):
            r = max(rows, key=lambda i: len(lines[i]))
            crumb = room._crumb(lines, r, {})
            header = lines[head] + "\n" + (lines[head + 1] + "\n" if rows_mode else "")
            widths.append(count((crumb + "\n\n" if crumb else "") + header + lines[r]))
        return max(widths)

    result = verdict("05b.1", longest_by_characters)
    assert not result.passed and "more words" in result.message, result.message


def test_05b_1_names_a_delimiter_that_refuses_colons():
    """A delimiter test that allows only dashes misses `|:---|---:|`: the hint names the colons."""

    def no_colons(text, count, rows_mode=False):
        return _room_by_blocks(text, count, rows_mode, marks="- ")

    result = verdict("05b.1", no_colons)
    assert not result.passed and "colons" in result.message, result.message


def test_05b_1_refuses_a_heading_stack_cut_by_position():
    """`path[:level - 1]` keeps a sibling under a skipped level (# A, ### B, ### C: 'A > B > C'
    where the path is 'A > C'); the hint names the cut by level."""

    def by_place(text, count, rows_mode=False):
        return _room_by_blocks(text, count, rows_mode, by_place=True)

    result = verdict("05b.1", by_place)
    assert not result.passed and "not by position" in result.message, result.message


def test_05b_1_names_a_missing_newline_after_the_delimiter_line():
    """In rows mode, no newline after the delimiter line gives the same count as one newline after
    the breadcrumb on a document with headings; the hint names the delimiter line only."""

    def no_delimiter_newline(text, count, rows_mode=False):
        return _room_by_blocks(text, count, rows_mode, after_delimiter="")

    result = verdict("05b.1", no_delimiter_newline)
    assert not result.passed, result.message
    assert "the delimiter line, like the header line" in result.message, result.message
    assert "breadcrumb is followed" not in result.message, result.message


def test_05b_1_refuses_stripping_the_trailing_spaces():
    """The pair is measured as the source writes it: a function that strips each line passed while
    no test document had a line ending in spaces; one that has them refuses it, naming the slip."""

    def stripped(text, count, rows_mode=False):
        stripped_text = "\n".join(line.strip() for line in text.split("\n"))
        return _room_by_blocks(stripped_text, count, rows_mode)

    result = verdict("05b.1", stripped)
    assert not result.passed and "trailing spaces" in result.message, result.message


def test_05b_1_names_the_delimiter_outside_rows_mode_and_a_stripped_row():
    """Two slips the cold reader found refused with a number only: the delimiter line added in
    every mode, and the row stripped of its spaces while the header is not."""

    def delimiter_always(text, count, rows_mode=False):
        return _room_by_blocks(text, count, True)  # the delimiter line whatever rows_mode says

    def stripped_row(text, count, rows_mode=False):
        lines = [
            ln.strip() if ln.lstrip().startswith("| ") and "-" not in ln else ln
            for ln in text.split("\n")
        ]
        kept = text.split("\n")
        heads = {
            i
            for i in range(len(kept) - 1)
            if set(kept[i + 1].replace("|", "").strip()) <= set(":- ") and "-" in kept[i + 1]
        }
        return _room_by_blocks(
            "\n".join(kept[i] if i in heads else ln for i, ln in enumerate(lines)), count, rows_mode
        )

    for fn, words in (
        (delimiter_always, "only in rows mode"),
        (stripped_row, "trailing spaces included"),
    ):
        result = verdict("05b.1", fn)
        assert not result.passed and words in result.message, result.message
