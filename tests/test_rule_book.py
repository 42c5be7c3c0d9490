"""A rule printed as a claim keeps every comparison behind it as a row (teaching.rule_book)."""

from chunklab.teaching.claims import compare
from chunklab.teaching.rule_book import RuleBook


def test_a_rule_counts_its_verdicts_and_keeps_its_rows(capsys):
    ahead = compare([1] * 8 + [0] * 4, [0] * 12, a="x", b="y", show=False)  # 8 won, 0 lost
    tied = compare([1, 0, 1, 0], [0, 1, 1, 0], a="x", b="z", show=False)  # 1 won, 1 lost
    book = RuleBook()
    made = book.rule("x-first", "2. Prefer x", [ahead, tied], holds=ahead.better)
    printed = capsys.readouterr().out
    assert made.holds and "claim x-first: HOLDS." in printed
    counted = "each row at its printed level: 1 better, 0 worse, 1 no difference shown"
    assert counted in printed
    frame = book.frame()
    assert list(frame.index) == ["2", "2"]
    assert frame["verdict"].tolist() == ["better", "no difference shown"]
    assert frame["won"].tolist() == [8, 1] and frame["lost"].tolist() == [0, 1]
    assert [c.a for c in book.compared] == ["2. x", "2. x"]
    assert len(book.figure("x against y and z").axes[0].get_yticklabels()) == 2


def test_a_four_to_nothing_rule_does_not_hold():
    four = compare([1] * 4 + [0] * 6, [0] * 10, show=False)
    book = RuleBook()
    assert not book.rule("four-none", "1. Four is not enough", [four], holds=four.better).holds
    assert book.frame().loc["1", "p"] == 0.125


def test_a_verdict_picked_among_three_is_coloured_by_the_corrected_test():
    six = compare([1] * 6 + [0] * 4, [0] * 10, show=False)  # 6 won, 0 lost: p = 0.0312
    book = RuleBook()
    book.rule("six-none", "1. Six of ten", [six, six], holds=six.better, searched=[1, 3])
    assert six.better
    assert book.frame()["corrected"].tolist() == ["better", "no difference shown"]
    assert book.corrected == ["better", "no difference shown"]


def test_a_rule_counts_its_corrected_verdicts_not_the_raw_ones(capsys):
    six = compare([1] * 6 + [0] * 4, [0] * 10, show=False)  # better at 0.05, not at 0.05 / 3
    RuleBook().rule("six-twice", "1. Six of ten", [six, six], holds=True, searched=[3, 3])
    assert "2 no difference shown" in capsys.readouterr().out


def test_row_evidence_names_the_cuts_without_orphans_and_counts_the_prose_cuts():
    import pandas as pd

    from chunklab.teaching.rule_book import row_evidence, won_lost

    ahead = compare([1] * 8 + [0] * 4, [0] * 12, a="x", b="y", show=False)
    prose = pd.DataFrame({"a": [1, 1], "b": [1, 0]})  # two questions: cut a answers both, b one
    orphans = pd.Series({"structural+": 6, "markdown": 0, "linearized": 0})
    lines = row_evidence(prose, [ahead], orphans, ahead)
    assert lines["running prose, no tables"] == "topics: 1 of 2 cuts answer all 2 questions"
    tables = lines["documents with tables"]
    assert tables.startswith("orphans: linearized, markdown none; structural+ 6.")
    assert won_lost({"bm25": ahead}) == "bm25 8-0 (p 0.00781)"


def test_a_row_made_at_a_family_level_is_read_at_that_level():
    six = compare([1] * 6 + [0] * 4, [0] * 10, show=False, level=100 - 5 / 3)  # p = 0.0312 > 0.0167
    book = RuleBook()
    book.rule("six-at-three", "1. Six of ten, among three", [six], holds=not six.better)
    assert book.frame()["level"].tolist() == ["98.33%"]
    assert book.corrected == ["no difference shown"] and "searched" not in book.frame()


def test_a_family_is_compared_in_order_at_its_level():
    from chunklab.teaching.rule_book import paired_family

    pairs = [("x", "y", [1] * 8 + [0] * 4, [0] * 12), ("x", "z", [1, 0, 1, 0], [0, 1, 1, 0])]
    made = paired_family(pairs, level=100 - 5 / 2)
    assert [(c.a, c.b, c.won, c.lost) for c in made] == [("x", "y", 8, 0), ("x", "z", 1, 1)]
    assert all(c.level == 100 - 5 / 2 for c in made)


def test_a_family_on_subsets_reads_each_line_on_its_own_questions():
    import pandas as pd

    from chunklab.teaching.rule_book import family_on

    table = pd.DataFrame({"x": [1, 1, 0, 1], "y": [0, 0, 0, 1]}, index=["q1", "q2", "q3", "q4"])
    family = [("x", "y", "bm25", "all"), ("x", "y", "bm25", "last two")]
    made = family_on({"bm25": table}, {"all": table.index, "last two": ["q3", "q4"]}, family, 99.0)
    assert [(c.a, c.won, c.lost, c.tied) for c in made] == [
        ("x (bm25)", 2, 0, 2),
        ("x (bm25)", 0, 0, 2),
    ]
    assert all(c.level == 99.0 for c in made)
