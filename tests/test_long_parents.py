"""Notebook 03d's views of its sweep: one corpus's scores picked out of the pooled ones, the
per-corpus table, and the picture of each comparison against the block's length."""

from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

from chunklab.teaching.claims import compare  # noqa: E402
from chunklab.teaching.long_parents import corpus_table, of_corpus, plot_length_sweep  # noqa: E402

ASKED = [SimpleNamespace(corpus=c) for c in ["a", "b", "a", "b", "a"]]


def test_of_corpus_keeps_the_pooled_order():
    assert of_corpus([1.0, 2.0, 3.0, 4.0, 5.0], ASKED, "a") == [1.0, 3.0, 5.0]
    assert of_corpus([1.0, 2.0, 3.0, 4.0, 5.0], ASKED, "b") == [2.0, 4.0]


def test_corpus_table_has_a_column_per_length_and_the_verdict_only_where_there_is_one():
    won = compare([1.0] * 30, [0.0] * 30, show=False)
    even = compare([1.0, 0.0], [0.0, 1.0], show=False)
    rows = {("BM25", "a", 800): won, ("BM25", "a", 1600): even, ("BM25", "b", 800): even}
    table = corpus_table(rows)
    assert list(table.columns) == [800, 1600]
    assert table.loc[("BM25", "a"), 800] == "30-0, +100.0, better"
    assert table.loc[("BM25", "a"), 1600] == "1-1, +0.0"


def test_plot_length_sweep_draws_a_panel_per_baseline():
    c = compare([1.0, 0.0, 1.0], [0.0, 0.0, 1.0], show=False)
    rows = {(name, size): c for name in ["BM25", "WordLlama"] for size in [1600, 4000]}
    figure = plot_length_sweep({"x": rows, "y": rows}, "title")
    assert len(figure.axes) == 2 and figure.axes[0].get_title() == "against x"
    assert len(plot_length_sweep({"x": rows}, "title").axes) == 1
