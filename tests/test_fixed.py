import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from chunklab import Document, FixedSizeChunker, cl100k
from chunklab.chunkers.fixed import char_windows
from chunklab.evaluation.metrics import chunks_with_all, split_lines, starts_mid_line


def test_reproduces_the_articles_figures(manual):
    chunks = FixedSizeChunker(size=200, overlap=40).split(manual)
    assert len(chunks) == 5
    assert [c.token_count for c in chunks] == [31, 36, 45, 40, 13]
    # The article prints each chunk's first 60 characters; these are its five lines.
    assert [c.text[:60] for c in chunks] == [
        "MANUAL DE OPERAÇÕES\n\n1. Escopo\nEste manual descreve o proced",
        "ência\nA inspeção visual ocorre a cada 30 dias. A medição de ",
        "3. Tabela de tolerância\n| Medida | Unidade | Limite | Ação |",
        "a carga |\n| Ruído | dB | 92 | Revisar o isolamento |\n| Desal",
        "esponsável e valor obtido. Registros\nincompletos não são ace",
    ]
    assert starts_mid_line(chunks, manual) == 3


def test_what_breaks_the_value_0_08_never_meets_its_header(manual):
    chunks = FixedSizeChunker(size=200, overlap=40).split(manual)
    assert chunks_with_all(chunks, ["0,08"]) == [3]
    assert chunks_with_all(chunks, ["0,08", "Limite"]) == []


def test_offsets_locate_every_chunk(manual):
    for chunker in (FixedSizeChunker(), FixedSizeChunker(size=30, overlap=7, unit="tokens")):
        for c in chunker.split(manual):
            assert c.text == manual.text[c.start : c.end]
            assert c.chunk_id == f"manual#{c.ordinal}"


@pytest.mark.parametrize(
    "size, overlap, says",
    [
        (0, 0, "greater than 0"),
        (-5, 0, "greater than 0"),
        (100, -1, "greater than or equal to 0"),
        (100, 100, "overlap (100) must be smaller than size (100)"),
        (100, 250, "overlap (250) must be smaller than size (100)"),
    ],
)
def test_bad_settings_are_validation_errors(size, overlap, says):
    with pytest.raises(ValidationError, match=re.escape(says)):
        FixedSizeChunker(size=size, overlap=overlap)


def test_unknown_unit_is_rejected():
    with pytest.raises(ValidationError, match="unit"):
        FixedSizeChunker(unit="bytes")


def test_windows_stop_at_the_end():
    # 350 characters at 200/40: the article's first sketch also emits [320, 350), which lies
    # wholly inside [160, 350). We stop once a window reaches the end.
    assert list(char_windows(350, 200, 40)) == [(0, 200), (160, 350)]
    assert list(char_windows(0, 200, 40)) == []


def test_whitespace_only_windows_are_dropped_and_ordinals_stay_contiguous():
    doc = Document(doc_id="d", uri="urn:d", title="", text="alpha" + " " * 50 + "omega")
    chunks = FixedSizeChunker(size=10, overlap=0).split(doc)
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert "".join(c.text for c in chunks).split() == ["alpha", "omega"]


def test_empty_document_gives_no_chunks():
    assert FixedSizeChunker().split(Document(doc_id="e", uri="urn:e", title="", text="")) == []


def test_token_mode_meets_the_budget_and_counts_in_cl100k(manual):
    chunks = FixedSizeChunker(size=40, overlap=8, unit="tokens").split(manual)
    assert max(c.token_count for c in chunks) <= 40
    assert all(c.token_count == cl100k(c.text) for c in chunks)
    assert chunks[-1].end == len(manual.text)


# Pieces, not single characters: accented words, runs of blanks, table pipes, an emoji (4 UTF-8
# bytes, split across cl100k tokens) are where offsets go wrong.
texts = st.lists(
    st.sampled_from(list("abc éçã|-\n0123,.") + ["ção", "  ", "\n\n", "🙂"]), max_size=200
).map("".join)


@settings(max_examples=150, deadline=None)
@given(text=texts, size=st.integers(1, 60), overlap_fraction=st.floats(0, 0.95))
def test_char_windows_lose_nothing(text, size, overlap_fraction):
    overlap = min(size - 1, int(size * overlap_fraction))
    doc = Document(doc_id="p", uri="urn:p", title="", text=text)
    chunks = FixedSizeChunker(size=size, overlap=overlap).split(doc)
    covered = [False] * len(text)
    for c in chunks:
        assert c.text == text[c.start : c.end] and len(c.text) <= size
        covered[c.start : c.end] = [True] * (c.end - c.start)
    assert all(covered[i] or text[i].isspace() for i in range(len(text)))


@settings(max_examples=60, deadline=None)
@given(text=texts, size=st.integers(2, 30), overlap=st.integers(0, 29))
def test_token_windows_lose_nothing_and_fit(text, size, overlap):
    overlap = min(overlap, size - 1)
    doc = Document(doc_id="p", uri="urn:p", title="", text=text)
    chunks = FixedSizeChunker(size=size, overlap=overlap, unit="tokens").split(doc)
    covered = [False] * len(text)
    for c in chunks:
        assert c.token_count <= size
        covered[c.start : c.end] = [True] * (c.end - c.start)
    assert all(covered[i] or text[i].isspace() for i in range(len(text)))


def test_lines_split_by_the_naive_cut(manual):
    assert split_lines(FixedSizeChunker(size=200, overlap=0).split(manual), manual) != []
    assert split_lines(FixedSizeChunker(size=200, overlap=40).split(manual), manual) == []
