"""Companion 05c's exercises refuse plausible wrong answers with a hint naming what is wrong, and
accept every correct form: 05c.1 asks for the rows lost at a size, by the rule, and refuses a sweep
and the sweep cell's copied safe size; 05c.2 refuses the size where the orphan count, not the rows
kept, reaches 0, and a count of hidden rows taken from orphans alone or copied from the notebook."""

import pytest

from chunklab.teaching import answers_tables_prefixes, selfcheck
from chunklab.teaching.exercises import verdict


@pytest.mark.xdist_group("exercise-05c.2")  # with its selfcheck test: one worker, one solve
def test_05c_2_accepts_the_pair_and_names_the_orphan_count_slip():
    """The travel policy's table: orphans reach 0 at a smaller size than rows kept do; that size,
    the answer the orphan count gives, is refused as the count's blind spot, and so is a count of
    hidden rows taken from orphans alone (0)."""
    right, first_blind = selfcheck.SOLUTIONS["05c.2"][1]()
    assert first_blind > 0, "some size from 60 on reads 0 orphans while a row is lost"
    assert selfcheck.verdict_for("05c.2", (right, first_blind)).endswith("correct.")
    assert selfcheck.verdict_for("05c.2", [float(right), float(first_blind)]).endswith("correct.")
    blind = [s for s in range(10, right) if answers_tables_prefixes.policy_linearized_at(s)[1] == 0]
    assert blind, "the orphan count reaches 0 before the rows are kept"
    line = selfcheck.verdict_for("05c.2", (min(blind), first_blind))
    assert "not quite" in line and "orphans() reports 0" in line and "row_fates" in line, line
    assert "what orphans alone say" in selfcheck.verdict_for("05c.2", (right, 0))
    assert "two ints" in selfcheck.verdict_for("05c.2", right)  # the old one-number answer
    assert "swapped" in selfcheck.verdict_for("05c.2", (first_blind, right))
    # size 1, the first size at which orphans() reads 0: the slip the prompt warns of, named too
    assert answers_tables_prefixes.policy_linearized_at(1)[1] == 0
    assert "orphans() reports 0" in selfcheck.verdict_for("05c.2", (1, first_blind))


@pytest.mark.xdist_group("exercise-05c.2")
def test_05c_2_names_the_newline_the_tokens_and_a_size_too_large():
    right, first_blind = selfcheck.SOLUTIONS["05c.2"][1]()
    assert "newline" in selfcheck.verdict_for("05c.2", (right - 1, first_blind))
    assert "smaller size" in selfcheck.verdict_for("05c.2", (right + 1, first_blind))
    assert "cloud.gov" in selfcheck.verdict_for("05c.2", (197, first_blind))
    doc = answers_tables_prefixes.load_document("travel_policy")
    (table,) = answers_tables_prefixes.find_tables(doc.text)
    tokens = max(answers_tables_prefixes.cl100k(table.header + "\n" + row) for row in table.rows)
    assert "counts characters" in selfcheck.verdict_for("05c.2", (tokens, first_blind))


@pytest.mark.xdist_group("exercise-05c.2")
def test_05c_2_second_number_needs_the_rows_not_the_orphan_count():
    """The old second number, the smallest size from 60 whose 0 orphans hide a lost row, was also
    the first size with 0 orphans (65): the orphan count alone gave it. The rows those zeros hide,
    summed, need not_kept at each size; that size, their count, one size's rows, every losing
    size's rows and section 1's five-document figure are refused, each named."""
    at = answers_tables_prefixes.policy_linearized_at
    right, hidden = selfcheck.SOLUTIONS["05c.2"][1]()
    blind = [s for s in range(60, 301) if at(s)[0] and not at(s)[1]]
    assert min(s for s in range(60, 301) if not at(s)[1]) == blind[0]  # the old shortcut
    assert hidden == sum(at(s)[0] for s in blind)
    line = selfcheck.verdict_for("05c.2", (right, blind[0]))
    assert "not quite" in line and "that is a size" in line, line
    slips = {
        0: "what orphans alone say",
        len(blind): "how many sizes",
        at(blind[0])[0]: "one of those sizes",
        at(blind[0])[0] * len(blind): "at each size",
        sum(at(s)[0] for s in range(60, 301)): "only those where orphans() reads 0",
        20: "section 1's figure",
    }
    for wrong, words in slips.items():
        assert wrong != hidden and words in selfcheck.verdict_for("05c.2", (right, wrong)), wrong


@pytest.mark.xdist_group("exercise-05c.2")
def test_05c_2_names_strings_given_for_ints():
    assert "not strings" in selfcheck.verdict_for("05c.2", ("73", 8))


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
    """The sweep cell's loop on the document: the count, by cutting, not by the rule."""
    from chunklab.chunkers.tables import LinearizedChunker

    pairs, _ = _pairs(doc)
    chunks = LinearizedChunker(size=size).split(doc)
    return sum(not any(h in c.text and r in c.text for c in chunks) for h, r in pairs)


def copied_safe_size(doc, size):
    """The sweep cell's expression, copied: the longest header + newline + row, at any size."""
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


def test_05c_1_names_reading_only_the_first_table():
    result = verdict("05c.1", first_table_only)
    assert not result.passed and "only the first table" in result.message, result.message


def test_05c_1_accepts_the_rule_and_it_is_what_cutting_gives():
    assert verdict("05c.1", rows_lost).passed
    assert verdict("05c.1", rows_lost_by_elimination).passed
    from chunklab.documents.series import load_document

    policy = load_document("travel_policy")
    right, _ = answers_tables_prefixes.policy_size_and_hidden_rows()
    for size in (60, right - 1, right):  # the rule counts what cutting loses
        assert rows_lost(policy, size) == answers_tables_prefixes.policy_linearized_at(size)[0]
    assert rows_lost(policy, right - 1) > 0 == rows_lost(policy, right)


def test_05c_1_refuses_the_sweep_cells_copied_safe_size_with_its_hint():
    """05c.1 (once 05.2) asked for the safe size, which the sweep cell prints as one expression:
    copying it passed. It now asks for the rows lost at any size; the copied safe size is refused
    by name."""
    result = verdict("05c.1", copied_safe_size)
    assert not result.passed and "that is the safe size" in result.message, result.message


def test_05c_1_refuses_the_sweep_and_names_the_slips():
    swept = verdict("05c.1", by_sweeping)
    assert not swept.passed and "cut the document" in swept.message, swept.message
    crossed = verdict("05c.1", header_and_row_from_two_tables)
    assert not crossed.passed and "own table's header" in crossed.message, crossed.message
    short = verdict("05c.1", without_the_newline)
    assert not short.passed and "count the newline" in short.message, short.message


def by_pack_lines(doc, size):
    """The cut without a chunker: notebook 05's pack_lines on the linearized text, each header
    glued to its row; its pieces are LinearizedChunker's, so its counts are right."""
    from chunklab.chunkers.tables import find_tables, linearize_tables, pack_lines

    tables = find_tables(doc.text)
    pieces = pack_lines(
        linearize_tables(doc.text).split("\n"), size, atoms=True, headers=[t.header for t in tables]
    )
    return sum(not any(t.header in p and r in p for p in pieces) for t in tables for r in t.rows)


def test_05c_1_refuses_cutting_with_pack_lines():
    """The statement says the check refuses a function that cuts; cutting with pack_lines (no
    chunker's split called) passed every case."""
    result = verdict("05c.1", by_pack_lines)
    assert not result.passed, result.message
    assert "cut the document" in result.message and "pack_line" in result.message, result.message


def test_05c_1_names_the_rows_kept_and_a_pair_exactly_size_long():
    def kept(doc, size):
        pairs, _ = _pairs(doc)
        return sum(len(h) + 1 + len(r) <= size for h, r in pairs)

    def as_long(doc, size):
        pairs, _ = _pairs(doc)
        return sum(len(h) + 1 + len(r) >= size for h, r in pairs)

    assert "rows kept" in verdict("05c.1", kept).message
    assert "exactly `size` long fits" in verdict("05c.1", as_long).message


def test_05c_1_names_one_too_many():
    """A newline counted twice (or one after the row) got the generic hint, not the slip."""

    def one_too_many(doc, size):
        pairs, _ = _pairs(doc)
        return sum(len(h) + 2 + len(r) > size for h, r in pairs)

    result = verdict("05c.1", one_too_many)
    assert not result.passed and "one too many" in result.message, result.message


def test_05c_1_names_the_delimiter_row_not_a_whole_table():
    """A pair counted with its delimiter row (header + delimiter + row) got the whole-table hint:
    on the travel policy the two slips gave the same counts at every size probed."""

    def with_the_delimiter(doc, size):
        lines = doc.text.split("\n")
        _, tables = _pairs(doc)
        return sum(
            len(t.header) + 1 + len(lines[t.delimiter_line]) + 1 + len(r) > size
            for t in tables
            for r in t.rows
        )

    result = verdict("05c.1", with_the_delimiter)
    assert not result.passed and "no delimiter row" in result.message, result.message


def test_05c_1_names_a_table_lost_for_its_longest_row():
    def whole_table_for_one_row(doc, size):
        _, tables = _pairs(doc)
        return sum(
            len(t.rows)
            for t in tables
            if t.rows and max(len(t.header) + 1 + len(r) for r in t.rows) > size
        )

    result = verdict("05c.1", whole_table_for_one_row)
    assert not result.passed and "that row only" in result.message, result.message


@pytest.mark.xdist_group("exercise-05c.2")
def test_05c_2_zero_hint_gives_the_notebooks_reason():
    """The hint for 0 blind sizes said a cut row leaves 'pieces that are not rows', which notebook
    05's orphan (a row or the start or end of one) contradicts; the reason is the header
    LinearizedChunker writes above each piece."""
    right, _ = selfcheck.SOLUTIONS["05c.2"][1]()
    line = selfcheck.verdict_for("05c.2", (right, 0))
    assert "header above each piece" in line and "not rows" not in line, line


def test_05c_1_names_the_pages_lines_as_written():
    """The page's own lines (two 18F header lines end in a space) in place of Table.header and
    Table.rows got only the generic hint."""

    def padded(doc, size):
        lines = doc.text.split("\n")
        _, tables = _pairs(doc)
        return sum(
            len(lines[t.header_line]) + 1 + len(lines[k]) > size
            for t in tables
            for k in t.row_lines
        )

    result = verdict("05c.1", padded)
    assert not result.passed and "spaces and all" in result.message, result.message
