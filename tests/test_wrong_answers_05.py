"""Notebook 05's exercises refuse plausible wrong answers with a hint naming what is wrong, and
accept every correct form (issue 29, item 3): the naive `split("|")` fails on an escaped pipe,
dropping empty cells fails on an empty cell, slicing off the outer cells fails on a table
without outer pipes; 05.2 asks for the rows lost at a size, by the rule, and refuses a sweep and
cell 23's copied safe size; 05.3 refuses the size where the orphan count, not the rows kept,
reaches 0, and a count of blind sizes taken from orphans alone."""

import re

import pytest

from chunklab.parsing.blocks import split_cells as _library_split
from chunklab.teaching import answers_tables_prefixes, selfcheck
from chunklab.teaching.exercises import verdict


def _cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def naive_split(header, row):
    return "; ".join(f"{h}: {v}" for h, v in zip(_cells(header), _cells(row), strict=False))


def dropping_empty_cells(header, row):
    def cells(line):
        return [c.strip() for c in re.split(r"(?<!\\)\|", line) if c.strip()]

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def slicing_off_the_outer_cells(header, row):
    def cells(line):
        return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def keeping_pipes(header, row):
    return f"{header} {row}"


def value_before_column(header, row):
    cells = re.compile(r"(?<!\\)\|")
    heads = [c.strip() for c in cells.split(header.strip().strip("|"))]
    values = [c.strip() for c in cells.split(row.strip().strip("|"))]
    return "; ".join(f"{v}: {h}" for h, v in zip(heads, values, strict=False))


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (naive_split, "escaped pipe"),
        (dropping_empty_cells, "empty cell"),
        (slicing_off_the_outer_cells, "no outer pipes"),
        (keeping_pipes, "missing"),
        (value_before_column, "the column name above it"),
    ],
)
def test_05_1_refuses_each_plausible_wrong_answer_with_its_hint(wrong, hint):
    result = verdict("05.1", wrong)
    assert not result.passed
    assert hint in result.message, result.message


def gfm_cells(line):
    line = line.strip()
    line = line[1:] if line.startswith("|") else line
    line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
    return [c.strip() for c in re.split(r"(?<!\\)\|", line)]


@pytest.mark.parametrize(
    "write",
    [
        lambda h, v: f"{h}: {v}",
        lambda h, v: f"{h}: {v.replace(chr(92) + '|', '|')}",  # the escaped pipe unescaped
        lambda h, v: f"{h}:{v}" if v else f"{h}:",
    ],
)
@pytest.mark.parametrize("separator", ["; ", ", ", "\n", " "])
def test_05_1_accepts_any_separator_and_either_spelling_of_an_escaped_pipe(write, separator):
    def column_value(header, row):
        pairs = zip(gfm_cells(header), gfm_cells(row), strict=False)
        return separator.join(write(h, v) for h, v in pairs)

    result = verdict("05.1", column_value)
    assert result.passed, result.message


def _gfm_cells(line):
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]


def stripping_every_outer_pipe(header, row):
    return "; ".join(f"{h}: {v}" for h, v in zip(_gfm_cells(header), _gfm_cells(row), strict=False))


def dropping_a_trailing_empty_cell(header, row):
    def cells(line):
        line = line.strip()
        line = line[1:] if line.startswith("|") else line
        line = line[:-1] if line.endswith("|") and not line.endswith("\\|") else line
        found = [c.strip() for c in re.split(r"(?<!\\)\|", line)]
        while found and not found[-1]:
            found.pop()
        return found

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def test_05_1_names_strip_on_a_trailing_escaped_pipe_and_a_dropped_trailing_cell():
    stripped = verdict("05.1", stripping_every_outer_pipe)
    assert not stripped.passed and "strip('|')" in stripped.message, stripped.message
    dropped = verdict("05.1", dropping_a_trailing_empty_cell)
    assert not dropped.passed and "empty cell" in dropped.message, dropped.message


def pipe_separated_pairs(header, row):
    """Right pairs, joined by ' | ': the pipe the exercise asks to remove is back between them."""
    return " | ".join(f"{h}: {v}" for h, v in zip(gfm_cells(header), gfm_cells(row), strict=False))


def test_05_1_names_a_pipe_left_between_the_pairs():
    result = verdict("05.1", pipe_separated_pairs)
    assert not result.passed and "no column pipe may be left" in result.message, result.message
    assert "the column name above it" not in result.message


def unstripped_cells(header, row):
    """Cells split on the pipes but not stripped: ' Measure ' becomes 'Measure :'."""
    cells = re.compile(r"(?<!\\)\|")
    heads, values = cells.split(header.strip().strip("|")), cells.split(row.strip().strip("|"))
    return "; ".join(f"{h}: {v}" for h, v in zip(heads, values, strict=False))


def test_05_1_names_cells_left_unstripped():
    result = verdict("05.1", unstripped_cells)
    assert not result.passed and "strip each cell" in result.message, result.message


@pytest.mark.xdist_group("exercise-05.3")  # with its selfcheck test: one worker, one solve
def test_05_3_accepts_the_pair_and_names_the_orphan_count_slip():
    """The travel policy's table: orphans reach 0 at a smaller size than rows kept do; that size,
    the answer the orphan count gives, is refused as the count's blind spot, and so is a count of
    blind sizes taken from orphans alone (0)."""
    right, blind_count = selfcheck.SOLUTIONS["05.3"][1]()
    assert blind_count > 0, "some size from 60 to 300 reads 0 orphans while a row is lost"
    assert selfcheck.verdict_for("05.3", (right, blind_count)).endswith("correct.")
    assert selfcheck.verdict_for("05.3", [float(right), float(blind_count)]).endswith("correct.")
    blind = [s for s in range(10, right) if answers_tables_prefixes.policy_linearized_at(s)[1] == 0]
    assert blind, "the orphan count reaches 0 before the rows are kept"
    line = selfcheck.verdict_for("05.3", (min(blind), blind_count))
    assert "not quite" in line and "orphans() reports 0" in line and "row_fates" in line, line
    assert "what orphans alone say" in selfcheck.verdict_for("05.3", (right, 0))
    assert "two ints" in selfcheck.verdict_for("05.3", right)  # the old one-number answer
    assert "swapped" in selfcheck.verdict_for("05.3", (blind_count, right))
    # size 1, the first size at which orphans() reads 0: the slip the prompt warns of, named too
    assert answers_tables_prefixes.policy_linearized_at(1)[1] == 0
    assert "orphans() reports 0" in selfcheck.verdict_for("05.3", (1, blind_count))


@pytest.mark.xdist_group("exercise-05.3")
def test_05_3_names_the_newline_the_tokens_a_size_too_large_and_the_wrong_counts():
    right, blind_count = selfcheck.SOLUTIONS["05.3"][1]()
    assert "newline" in selfcheck.verdict_for("05.3", (right - 1, blind_count))
    assert "smaller size" in selfcheck.verdict_for("05.3", (right + 1, blind_count))
    assert "cloud.gov" in selfcheck.verdict_for("05.3", (197, blind_count))
    doc = answers_tables_prefixes.load_document("travel_policy")
    (table,) = answers_tables_prefixes.find_tables(doc.text)
    tokens = max(answers_tables_prefixes.cl100k(table.header + "\n" + row) for row in table.rows)
    assert "counts characters" in selfcheck.verdict_for("05.3", (tokens, blind_count))
    losing = sum(answers_tables_prefixes.policy_linearized_at(s)[0] > 0 for s in range(60, 301))
    assert "every size that loses a row" in selfcheck.verdict_for("05.3", (right, losing))


def test_05_1_refuses_the_library_split_cells_with_its_own_hint():
    """`split_cells` is imported in the notebook's first cell: zipping its cells passes every
    case without the skill the exercise asks for, so it is refused by name."""
    from chunklab.parsing.blocks import split_cells

    def column_value(header, row):
        return "; ".join(
            f"{h}: {v}" for h, v in zip(split_cells(header), split_cells(row), strict=False)
        )

    result = verdict("05.1", column_value)
    assert not result.passed and "split_cells" in result.message, result.message


@pytest.mark.xdist_group("exercise-05.3")
def test_05_1_refuses_the_library_split_cells_taken_as_a_default_argument():
    """A default argument `sc=split_cells` names no global: the check reads defaults too."""
    from chunklab.parsing.blocks import split_cells

    def column_value(header, row, sc=split_cells):
        return "; ".join(f"{h}: {v}" for h, v in zip(sc(header), sc(row), strict=False))

    result = verdict("05.1", column_value)
    assert not result.passed and "split_cells" in result.message, result.message


def run_together(header, row):
    """Right pairs with nothing between them: 'Measure:VibrationUnit:mm/s'."""
    return "".join(f"{h}:{v}" for h, v in zip(gfm_cells(header), gfm_cells(row), strict=False))


def dict_repr(header, row):
    """str(dict(...)): the names carry quotes before their colons."""
    return str(dict(zip(gfm_cells(header), gfm_cells(row), strict=False)))


def test_05_1_names_pairs_run_together_and_a_dict_repr():
    joined = verdict("05.1", run_together)
    assert not joined.passed and "nothing separates one pair" in joined.message, joined.message
    quoted = verdict("05.1", dict_repr)
    assert not quoted.passed and "quotes before its colon" in quoted.message, quoted.message
    assert "the column name above it" not in quoted.message


def _one_line_helper(line):
    return _library_split(line)


def _helper_around_the_library(header, row):
    cells = zip(_one_line_helper(header), _one_line_helper(row), strict=False)
    return "; ".join(f"{h}: {v}" for h, v in cells)


def _importing_inside(header, row):
    from chunklab.parsing.blocks import split_cells as cells

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


@pytest.mark.parametrize("wrong", [_helper_around_the_library, _importing_inside])
def test_05_1_refuses_the_library_split_cells_behind_a_helper_or_an_inner_import(wrong):
    """A one-line module-level helper around `split_cells`, or an import of it inside the
    function, passed every case without the splitting the exercise asks for."""
    result = verdict("05.1", wrong)
    assert not result.passed and "split_cells" in result.message, result.message


@pytest.mark.xdist_group("exercise-05.3")
def test_05_3_names_strings_given_for_ints():
    assert "not strings" in selfcheck.verdict_for("05.3", ("73", 8))


def assuming_paired_outer_pipes(header, row):
    """Drops the first and the last piece whenever a line starts with a pipe: right on every row
    with both outer pipes or none, wrong on `| A | B` (B lost) and on `A | B |` (an empty pair)."""

    def cells(line):
        found = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())]
        return found[1:-1] if line.strip().startswith("|") else found

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def test_05_1_refuses_outer_pipes_assumed_in_pairs():
    result = verdict("05.1", assuming_paired_outer_pipes)
    assert not result.passed, result.message
    assert "one side only" in result.message, result.message


def _pairs(doc):
    from chunklab.chunkers.tables import find_tables

    return [(t.header, r) for t in find_tables(doc.text) for r in t.rows], find_tables(doc.text)


def rows_lost(doc, size):
    pairs, _ = _pairs(doc)
    return sum(len(h) + 1 + len(r) > size for h, r in pairs)


def rows_lost_by_elimination(doc, size):
    """Another correct form: the rows minus those whose header + newline + row fits."""
    pairs, _ = _pairs(doc)
    return len(pairs) - len([1 for h, r in pairs if len(f"{h}\n{r}") <= size])


def by_sweeping(doc, size):
    """Cell 23's loop on the document: the count, by cutting, not by the rule."""
    from chunklab.chunkers.tables import LinearizedChunker

    pairs, _ = _pairs(doc)
    chunks = LinearizedChunker(size=size).split(doc)
    return sum(not any(h in c.text and r in c.text for c in chunks) for h, r in pairs)


def copied_safe_size(doc, size):
    """Cell 23's expression, copied: the longest header + newline + row, whatever the size."""
    pairs, _ = _pairs(doc)
    return max(len(h) + 1 + len(r) for h, r in pairs)


def header_and_row_from_two_tables(doc, size):
    pairs, tables = _pairs(doc)
    widest = max(len(t.header) for t in tables)
    return sum(widest + 1 + len(r) > size for _, r in pairs)


def without_the_newline(doc, size):
    pairs, _ = _pairs(doc)
    return sum(len(h) + len(r) > size for h, r in pairs)


def first_table_only(doc, size):
    _, tables = _pairs(doc)
    return sum(len(tables[0].header) + 1 + len(r) > size for r in tables[0].rows)


def test_05_2_names_reading_only_the_first_table():
    result = verdict("05.2", first_table_only)
    assert not result.passed and "only the first table" in result.message, result.message


def test_05_2_accepts_the_rule_and_it_is_what_cutting_gives():
    assert verdict("05.2", rows_lost).passed
    assert verdict("05.2", rows_lost_by_elimination).passed
    from chunklab.documents.series import load_document

    policy = load_document("travel_policy")
    right, _ = answers_tables_prefixes.policy_size_and_blind_count()
    for size in (60, right - 1, right):  # the rule counts what cutting loses
        assert rows_lost(policy, size) == answers_tables_prefixes.policy_linearized_at(size)[0]
    assert rows_lost(policy, right - 1) > 0 == rows_lost(policy, right)


def test_05_2_refuses_cell_23s_copied_safe_size_with_its_hint():
    """05.2 asked for the safe size, which cell 23 prints as one expression: copying it passed.
    It now asks for the rows lost at any size; the copied safe size is refused by name."""
    result = verdict("05.2", copied_safe_size)
    assert not result.passed and "that is the safe size" in result.message, result.message


def test_05_2_refuses_the_sweep_and_names_the_slips():
    swept = verdict("05.2", by_sweeping)
    assert not swept.passed and "cut the document" in swept.message, swept.message
    crossed = verdict("05.2", header_and_row_from_two_tables)
    assert not crossed.passed and "own table's header" in crossed.message, crossed.message
    short = verdict("05.2", without_the_newline)
    assert not short.passed and "count the newline" in short.message, short.message


def test_05_2_names_the_rows_kept_and_a_pair_exactly_size_long():
    def kept(doc, size):
        pairs, _ = _pairs(doc)
        return sum(len(h) + 1 + len(r) <= size for h, r in pairs)

    def as_long(doc, size):
        pairs, _ = _pairs(doc)
        return sum(len(h) + 1 + len(r) >= size for h, r in pairs)

    assert "rows kept" in verdict("05.2", kept).message
    assert "exactly `size` long fits" in verdict("05.2", as_long).message


def keeping_the_outer_empties(header, row):
    """Splits on unescaped pipes, keeping the empty pieces outer pipes leave: ': ; A: x; : '."""

    def cells(line):
        return [c.strip() for c in re.split(r"(?<!\\)\|", line)]

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def test_05_1_names_the_empty_piece_an_outer_pipe_leaves():
    result = verdict("05.1", keeping_the_outer_empties)
    assert not result.passed and "no column name" in result.message, result.message


def test_05_2_names_one_too_many():
    """A newline counted twice (or one after the row) got the generic hint, not the slip."""

    def one_too_many(doc, size):
        pairs, _ = _pairs(doc)
        return sum(len(h) + 2 + len(r) > size for h, r in pairs)

    result = verdict("05.2", one_too_many)
    assert not result.passed and "one too many" in result.message, result.message
