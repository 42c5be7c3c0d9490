"""Notebook 05's exercises refuse plausible wrong answers with a hint naming what is wrong, and
accept every correct form (issue 29, item 3): the naive `split("|")` fails on an escaped pipe,
dropping empty cells fails on an empty cell, slicing off the outer cells fails on a table
without outer pipes. The exercises on a table's room (once 05.2 and 05.3) are companion 05c's:
tests/test_wrong_answers_05c.py."""

import re

import pytest

from chunklab.parsing import blocks as _blocks
from chunklab.parsing.blocks import split_cells as _library_split
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
@pytest.mark.parametrize("separator", ["; ", ", ", "\n", " ", " / ", " - ", " ; ", "  "])
def test_05_1_accepts_any_separator_and_either_spelling_of_an_escaped_pipe(write, separator):
    """A cold reader's right answers with ' / ' and ' - ' were refused, with a hint that the
    values sat under the wrong columns: the pairs are now read back by the column names."""

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


@pytest.mark.xdist_group("exercise-05c.2")
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


def _module_attribute(header, row):  # the module imported at the top, as a notebook cell would
    cells = zip(_blocks.split_cells(header), _blocks.split_cells(row), strict=False)
    return "; ".join(f"{h}: {v}" for h, v in cells)


def _table_cells(header, row):
    from chunklab.chunkers.tables import find_tables

    delimiter = "|" + "---|" * len(re.split(r"(?<!\\)\|", header.strip().strip("|")))
    names = find_tables(f"{header}\n{delimiter}\n{header}")[0].cells[0]
    values = find_tables(f"{header}\n{delimiter}\n{row}")[0].cells[0]
    return "; ".join(f"{h}: {v}" for h, v in zip(names, values, strict=False))


@pytest.mark.parametrize("wrong", [_module_attribute, _table_cells])
def test_05_1_refuses_split_cells_reached_as_a_module_attribute_or_through_find_tables(wrong):
    """A cold reader passed the old name-reading check with `blocks.split_cells(...)` and with
    `find_tables(...)[0].cells`: neither names `split_cells` in the learner's code. The check now
    watches the library's function while the answer runs (`checking.run_without`)."""
    result = verdict("05.1", wrong)
    assert not result.passed and "split_cells" in result.message, result.message


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


def keeping_the_outer_empties(header, row):
    """Splits on unescaped pipes, keeping the empty pieces outer pipes leave: ': ; A: x; : '."""

    def cells(line):
        return [c.strip() for c in re.split(r"(?<!\\)\|", line)]

    return "; ".join(f"{h}: {v}" for h, v in zip(cells(header), cells(row), strict=False))


def test_05_1_names_the_empty_piece_an_outer_pipe_leaves():
    result = verdict("05.1", keeping_the_outer_empties)
    assert not result.passed and "no column name" in result.message, result.message


def _linearize_slip(slip):
    from chunklab.teaching.exercises_tables import linearized_with_slip

    return lambda text: linearized_with_slip(text, slip)


@pytest.mark.parametrize(
    ("slip", "hint"),
    [
        ("pipe", "without outer pipes"),
        ("delimiter", "drop the delimiter row"),
        ("once", "before every data row"),
        ("twice", "not kept on its own"),
        ("empty", "no data rows keeps its header"),
        ("first", "its own table's header"),
    ],
)
def test_05_2_names_each_linearizing_slip(slip, hint):
    result = verdict("05.2", _linearize_slip(slip))
    assert not result.passed and hint in result.message, result.message


def test_05_2_accepts_the_rule_refuses_the_library_and_section_3s_linearize():
    import json
    from pathlib import Path

    from chunklab.chunkers.tables import linearize_tables
    from solutions.exercises import linearize_any

    assert verdict("05.2", linearize_any).passed
    refused = verdict("05.2", linearize_tables)
    assert not refused.passed and "write the linearizing yourself" in refused.message
    notebook = Path(__file__).parent.parent / "notebooks" / "05_tables.ipynb"
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    source = next("".join(c["source"]) for c in cells if "def linearize(" in "".join(c["source"]))
    namespace: dict = {}
    exec(source.split("\nlinear = ")[0], namespace)  # section 3's from-scratch linearize, copied
    copied = verdict("05.2", namespace["linearize"])
    assert not copied.passed and "without outer pipes" in copied.message, copied.message


def _linearized_by_hand(text, order, stripped, after_delimiter=False):
    """Every table find_tables finds, linearized from the page's lines: each row and its header
    in `order`, the lines `stripped` as find_tables reads them or left as the page writes them;
    `after_delimiter`: carry on from the line after the delimiter row, not after the last row."""
    from chunklab.chunkers.tables import find_tables

    lines, out, k = text.split("\n"), [], 0
    tables = {t.header_line: t for t in find_tables(text)}
    while k < len(lines):
        t = tables.get(k)
        if t is None:
            out.append(lines[k])
            k += 1
            continue
        header = t.header if stripped else lines[k]
        rows = t.rows if stripped else [lines[n] for n in t.row_lines]
        out += [x for row in rows for x in order(header, row)] if rows else [header]
        last = t.delimiter_line if after_delimiter else (t.row_lines or (t.delimiter_line,))[-1]
        k = last + 1
    return "\n".join(out)


def test_05_2_names_rows_written_before_their_header_and_lines_left_unstripped():
    """Two slips got only "line N: expected ...": each row written before its header, and the
    page's own lines (spaces and all) written where find_tables' stripped ones belong."""
    right = verdict("05.2", lambda text: _linearized_by_hand(text, lambda h, r: (h, r), True))
    assert right.passed, right.message
    after = verdict("05.2", lambda text: _linearized_by_hand(text, lambda h, r: (r, h), True))
    assert not after.passed and "before its row" in after.message, after.message
    raw = verdict("05.2", lambda text: _linearized_by_hand(text, lambda h, r: (h, r), False))
    assert not raw.passed and "as find_tables reads them" in raw.message, raw.message


def test_05_2_names_carrying_on_after_the_delimiter_row():
    """Carrying on from the line after the delimiter row writes each table's rows again, as the
    page has them, after the linearized ones; it got only "line N: expected ''"."""
    slip = verdict("05.2", lambda text: _linearized_by_hand(text, lambda h, r: (h, r), True, True))
    assert not slip.passed and "after its last row" in slip.message, slip.message


@pytest.mark.parametrize("separator", [" / ", " - "])
@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (naive_split, "escaped pipe"),
        (dropping_empty_cells, "empty cell"),
        (slicing_off_the_outer_cells, "no outer pipes"),
        (value_before_column, "the column name above it"),
        (stripping_every_outer_pipe, "strip('|')"),
        (keeping_the_outer_empties, "no column name"),
    ],
)
def test_05_1_still_refuses_the_wrong_splits_with_a_slash_or_dash_separator(separator, wrong, hint):
    """Accepting ' / ' and ' - ' must not let a wrong split through under them."""

    def with_separator(header, row):
        return wrong(header, row).replace("; ", separator)

    result = verdict("05.1", with_separator)
    assert not result.passed and hint in result.message, result.message


def _extra_word_after_each_value(header, row):
    """A word between the pairs is not a separator: 'Measure: Vibration and Unit: mm/s'."""
    pairs = zip(gfm_cells(header), gfm_cells(row), strict=False)
    return " and ".join(f"{h}: {v}" for h, v in pairs)


def test_05_1_refuses_text_that_is_no_separator():
    result = verdict("05.1", _extra_word_after_each_value)
    assert not result.passed and "should hold" in result.message, result.message
