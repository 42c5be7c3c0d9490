"""Companion 05b's exercise refuses plausible wrong answers, each with a hint naming the slip: a
plain slicing of the columns (the name column only in the first group), groups one column too
wide (the repeated name not counted), one column a group (too many groups)."""

from chunklab.teaching.exercises import verdict


def plain_slices(n_columns, width):
    columns = list(range(n_columns))
    return [columns[i : i + width] for i in range(0, n_columns, width)]


def name_not_counted(n_columns, width):
    rest = list(range(1, n_columns))
    return [[0, *rest[i : i + width]] for i in range(0, len(rest), width)] or [[0]]


def one_column_a_group(n_columns, width):
    return [[0, c] for c in range(1, n_columns)] or [[0]]


def reversed_columns(n_columns, width):
    rest = list(range(n_columns - 1, 0, -1))
    return [[0, *rest[i : i + width - 1]] for i in range(0, len(rest), width - 1)] or [[0]]


def test_05b_1_refuses_with_a_hint_naming_the_slip():
    for wrong, hint in [
        (plain_slices, "column 0"),
        (name_not_counted, "included"),
        (one_column_a_group, "as few groups"),
        (reversed_columns, "in the table's order"),
    ]:
        result = verdict("05b.1", wrong)
        assert not result.passed and hint in result.message, result.message


def test_05b_1_accepts_the_greedy_groups():
    def column_groups(n_columns, width):
        groups = [[0]]
        for column in range(1, n_columns):
            if len(groups[-1]) == width:
                groups.append([0])
            groups[-1].append(column)
        return groups

    assert verdict("05b.1", column_groups).passed


def test_05b_2_names_the_first_zero_the_orphans_only_count_and_the_other_slips():
    """Linearize mode on the series' copy of the GDS page: (the budget from which on, how many
    budgets show 0 orphans with a row not kept). The orphans-only method gets the budget right
    and the count 0, and is refused; so are the first zero, one short, the other GDS file's
    figure, rows mode's budget and a larger budget, each with the hint for its slip."""
    from chunklab.documents.series import load_document
    from chunklab.teaching import answers_tables_prefixes as answers
    from chunklab.teaching import selfcheck

    right, blind = selfcheck.SOLUTIONS["05b.2"][1]()
    assert selfcheck.verdict_for("05b.2", (right, blind)).endswith("correct.")
    assert right == answers._widest_pair_tokens(load_document("sensitive_code"))
    assert blind > 0
    assert "what orphans alone say" in selfcheck.verdict_for("05b.2", (right, 0))
    first_zero = min(
        b for b in range(8, 131) if answers._linearize_losses("sensitive_code", b)[0] == 0
    )
    assert first_zero < right - 1
    assert "first zero" in selfcheck.verdict_for("05b.2", (first_zero, blind))
    assert "off by one" in selfcheck.verdict_for("05b.2", (right - 1, blind))
    assert "series' copy differs" in selfcheck.verdict_for("05b.2", (68, blind))
    assert "smaller budget also" in selfcheck.verdict_for("05b.2", (right + 1, blind))
    assert "rows mode" in selfcheck.verdict_for("05b.2", (78, blind))
    assert "two ints" in selfcheck.verdict_for("05b.2", right)
    assert "swapped" in selfcheck.verdict_for("05b.2", (blind, right))


def test_05b_1_pairs_get_their_own_hint_before_the_one_column_case():
    message = verdict("05b.1", lambda n, w: [[0, c] for c in range(1, n)]).message
    assert "as few groups as possible" in message, message


def test_05b_1_names_one_based_column_numbers():
    """Numbering the columns from 1 (the first column as 1) is its own slip, named as such."""

    def one_based(n_columns, width):
        rest = list(range(2, n_columns + 1))
        return [[1, *rest[i : i + width - 1]] for i in range(0, len(rest), width - 1)] or [[1]]

    result = verdict("05b.1", one_based)
    assert not result.passed and "numbered from 0" in result.message, result.message
