"""The sentence window: sentences as children, the sentences around each as its parent."""

import pytest

from chunklab import Document, load_document, load_questions
from chunklab.evaluation.recall import sentence_window_table
from chunklab.retrieval.index import ParentChildIndex, index_document
from chunklab.retrieval.retrievers import LogCountRetriever
from chunklab.retrieval.sentence_window import sentence_spans, sentence_windows, window_of

TEXT = "One. Two is here! Three?\n\n# Four\n\n1. Five has a marker.\n2. Six too.\nSeven"


def texts(text):
    return [text[a:b] for a, b in sentence_spans(text)]


def test_sentences_end_at_punctuation_and_blank_lines_but_not_at_a_list_marker():
    assert texts(TEXT) == [
        "One.",
        "Two is here!",
        "Three?",
        "# Four",
        "1. Five has a marker.",
        "2. Six too.",
        "Seven",
    ]


def test_a_table_without_a_full_stop_is_one_sentence():
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |"
    assert texts(f"Before.\n\n{table}\n\nAfter.") == ["Before.", table, "After."]


@pytest.mark.parametrize(
    ("i", "n", "before", "after", "expected"),
    [(0, 7, 3, 3, (0, 3)), (3, 7, 3, 3, (0, 6)), (6, 7, 3, 3, (3, 6)), (4, 7, 3, 2, (1, 6))],
)
def test_the_window_is_clipped_at_the_ends(i, n, before, after, expected):
    assert window_of(i, n, before, after) == expected


def test_each_sentence_is_a_child_and_its_parent_is_the_exact_slice_around_it():
    doc = Document(doc_id="d", uri="urn:d", title="", text=TEXT)
    paired = sentence_windows(doc, window_size=1)
    spans = sentence_spans(TEXT)
    assert [c.text for c in paired.children] == texts(TEXT)
    parent = {p.chunk_id: p for p in paired.parents}
    for i, child in enumerate(paired.children):
        first, last = window_of(i, len(spans), 1, 1)
        window = parent[child.parent_id]
        assert window.text == TEXT[spans[first][0] : spans[last][1]]
        assert child.text in window.text and (window.start, window.end) == (
            spans[first][0],
            spans[last][1],
        )


def test_llamaindex_slice_takes_one_sentence_fewer_after():
    doc = Document(doc_id="d", uri="urn:d", title="", text=TEXT)
    symmetric = sentence_windows(doc, window_size=3)
    llama = sentence_windows(doc, window_size=3, after=2)
    assert symmetric.parents[0].text.endswith("# Four")  # sentence 0: 0..3
    assert llama.parents[0].text.endswith("Three?")  # sentence 0: 0..2


def test_negative_window_is_refused():
    with pytest.raises(ValueError, match="window sizes"):
        sentence_windows("One. Two.", window_size=-1)


def test_a_hit_hands_over_its_window_through_the_index():
    policy = load_document("travel_policy")
    paired = sentence_windows(policy, window_size=1)
    index = ParentChildIndex(retriever=LogCountRetriever())
    index_document(index, paired.parents, paired.children)
    (hit,) = index.search("director approval", k=1)
    (window,) = index.small_to_big("director approval", k=1)
    assert "director" in index.store.child("default", hit.ref_id).text
    assert window.text.count("\n") == 2  # the step before, the step, the step after
    assert "2. Request" in window.text and "4. Submit" in window.text


def test_the_table_rows_are_one_per_k_and_recall_grows_with_k():
    rows = sentence_window_table(
        load_document("travel_policy"), load_questions("travel_policy"), LogCountRetriever(), [1, 4]
    )
    assert [r["k"] for r in rows] == [1, 4]
    assert rows[0]["fact_recall"] <= rows[1]["fact_recall"]
    assert rows[0]["tokens_to_model"] < rows[1]["tokens_to_model"]
