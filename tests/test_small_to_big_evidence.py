"""The bookkeeping notebook 03 and companion 03b call: tables of means and pairings at the level
the caller names (small_to_big_evidence), and 03b's table of five ways on four questions
(window_evidence)."""

from chunklab import load_document, load_questions
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.retrieval.sentence_window import sentence_windows
from chunklab.teaching.small_to_big_evidence import (
    against_own_children,
    against_sections,
    best_against_best,
    feeding_table,
    series_table,
)
from chunklab.teaching.window_evidence import four_question_tables
from chunklab.tokens.counters import approx_tokens

# per retriever: (sections searched directly, small-to-big), one score per question
SERIES = {"a": ([1, 1, 0, 0], [1, 1, 1, 0]), "b": ([0, 0, 0, 0], [1, 1, 1, 1])}


def test_series_table_means_in_points_and_tokens():
    table = series_table(SERIES, {"a": ([10, 20, 30, 40], [5, 5, 5, 5]), "b": SERIES["b"]})
    assert table.loc["a", "sections searched directly"] == 50.0
    assert table.loc["b", "small-to-big"] == 100.0
    assert table.loc["a", "tokens, directly"] == 25.0


def test_pairings_are_read_at_the_level_given_and_the_best_pick_at_one_of_n_squared():
    paired = against_sections(SERIES, level=100 - 5 / 2)
    assert [c.won for c in paired.values()] == [1, 4]
    assert paired["b"].level == 97.5
    best = best_against_best(SERIES)  # small-to-big of b against a's sections: one pick of 2 x 2
    assert (best.won, best.lost) == (2, 0)
    assert best.level == 100 - 5 / 4


def test_feeding_counts_the_questions_where_the_children_run_out():
    fed = {"a": ([1, 0], [1, 1], [(100, 100), (100, 60)])}
    assert feeding_table(fed).loc["a", "questions where they run out"] == 1
    assert against_own_children(fed, level=95.0)["a"].lost == 1


def test_four_question_tables_hold_five_ways_and_sections_alone_per_question():
    policy, questions = load_document("travel_policy"), load_questions("travel_policy")
    chunker = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens)
    recall, tokens, per_question = four_question_tables(
        policy, questions, chunker, sentence_windows(policy), {"BM25": BM25Retriever()}, ks=[1]
    )
    assert set(recall.columns) == {
        "children only",
        "small-to-big",
        "sentence window",
        "sections alone",
        "merged windows",
    }
    assert len(per_question["BM25", "sections alone", 1]) == len(questions.questions)
    assert (tokens["merged windows"] <= tokens["sentence window"]).all()
