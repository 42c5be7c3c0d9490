"""The stored spans of notebook 10d's MarkdownChunker cuts (and the report's splitter's, at the caps
around 175) equal a fresh cut, and a text they were
not stored for is refused, so the notebook never scores a stale cut."""

import pytest

from chunklab.evaluation.benchmark_rows import row_cut
from chunklab.evaluation.chroma import load_corpora
from chunklab.evaluation.stored_cuts import CUT_ROWS, StaleCut, spans, stored_cut


def fresh(label, text):  # the row cut again, as spans (a text cut located as the report does)
    return [tuple(span) for span in spans(row_cut(label)(text), text)]


SMALL = ("chatlogs", "state_of_the_union")  # under a second to cut; the rest take seconds


@pytest.mark.parametrize("label", CUT_ROWS)
def test_the_stored_spans_equal_a_fresh_cut_of_the_small_corpora(label):
    corpora = load_corpora()
    for corpus in SMALL:
        assert stored_cut(label)(corpora[corpus]) == fresh(label, corpora[corpus]), corpus


@pytest.mark.slow
@pytest.mark.parametrize("label", CUT_ROWS)
def test_the_stored_spans_equal_a_fresh_cut_of_every_corpus(label):
    for corpus, text in load_corpora().items():
        if corpus not in SMALL:
            assert stored_cut(label)(text) == fresh(label, text), corpus


def test_a_text_not_stored_is_refused_with_the_command_that_stores_it():
    text = load_corpora()["chatlogs"]
    with pytest.raises(StaleCut, match="run make embeddings"):
        stored_cut("markdown 150")(text.replace("the", "The", 1))
