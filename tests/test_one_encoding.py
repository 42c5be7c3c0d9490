"""Issue 17: every count is read off the document's one encoding, and nothing changes for it.

The fast path (`SourceBudget` with cl100k: spans read off `DocumentTokens`) is checked against an
oracle that counts every candidate directly: the same counter wrapped in a function the budget
does not recognise, so it trusts no arithmetic and re-encodes each piece from its start, as the
code did before. Chunks must be identical, field by field, and every `token_count` exact.
"""

import random
import statistics
import time

from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_gen import document

from chunklab import Chunk, Document, cl100k
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.embeddings.static import HashingEmbedder
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import cl100k_encoding
from chunklab.tokens.encoding import DocumentTokens
from chunklab.tokens.utf8 import Utf8Offsets

PROPERTY = settings(
    max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)

# Words that stress piece boundaries: accents, digits, contractions, symbols, emoji, CJK, tabs.
WORDS = [
    "leave",
    "policy",
    "The",
    "Tokyo",
    "90",
    "days.",
    "ação",
    "você",
    "it's",
    "DON'T",
    "x'y",
    "e.g.",
    "(see",
    "§4)",
    "—",
    "😀",
    "東京",
    "R$",
    "4,5",
    "0,08%",
    "a|b",
    "**bold**",
    "`code`",
    "\t",
    "x:",
    "?!",
    "...",
    "[link](#x)",
    "11:30",
    "é.",
]


@st.composite
def one_line_paragraphs(draw):
    """Markdown whose paragraphs are each one long line of sentences, as editors write them."""
    parts = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.booleans()):
            parts.append(
                "## " + " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)))
            )
        sentences = draw(
            st.lists(
                st.lists(st.sampled_from(WORDS), min_size=1, max_size=14), min_size=1, max_size=40
            )
        )
        parts.append(
            " ".join(
                " ".join(s) + draw(st.sampled_from([".", "!", "?", ";", ":", ""]))
                for s in sentences
            )
        )
    return "\n\n".join(parts)


def direct(text: str) -> int:
    """cl100k, but not the function object the budget recognises: every count is a fresh
    encoding."""
    return cl100k(text)


def fields(chunks):
    return [
        (c.chunk_id, c.text, c.token_count, c.start, c.end, c.parent_id, c.ordinal, c.metadata)
        for c in chunks
    ]


def real_text() -> str:
    return "\n\n".join(p.read_text(encoding="utf-8") for p in sorted(DATA.glob("*.md")))


# --- the pieces ----------------------------------------------------------------------------------


@PROPERTY
@given(st.text(alphabet="ab .\né€😀çã'\t|1", max_size=80))
def test_utf8_offsets_agree_with_encoding_the_prefix(text):
    offsets, raw = Utf8Offsets(text), text.encode("utf-8")
    for p in range(len(text) + 1):
        assert offsets.byte_of(p) == len(text[:p].encode("utf-8"))
    for x in range(len(raw) + 1):  # a byte inside a character belongs to that character
        assert offsets.char_of(x) == len(raw[:x].decode("utf-8", errors="ignore"))


@PROPERTY
@given(one_line_paragraphs(), st.randoms(use_true_random=False))
def test_a_span_counted_off_the_document_encoding_is_its_own_count(text, rng):
    budget = SourceBudget(text, cl100k)
    for _ in range(30):
        a = rng.randrange(len(text) + 1)
        b = rng.randrange(a, len(text) + 1)
        assert budget.span_count(a, b) == cl100k(text[a:b]), text[a:b]


def test_span_counts_on_every_real_document():
    text, rng = real_text(), random.Random(0)
    tokens = DocumentTokens(text)
    for _ in range(3000):
        a = rng.randrange(len(text))
        b = min(len(text), a + rng.randint(0, 2000))
        assert tokens.span_count(a, b) == cl100k(text[a:b]), text[a:b]


# --- chunks unchanged ----------------------------------------------------------------------------


@PROPERTY
@given(st.one_of(one_line_paragraphs(), document()), st.sampled_from([8, 12, 30, 60, 200]))
def test_markdown_chunks_are_those_of_counting_every_candidate(text, max_tokens):
    doc = Document(doc_id="g", uri="urn:g", title="G", text=text)
    fast = MarkdownChunker(max_tokens=max_tokens).split(doc)
    assert fields(fast) == fields(
        MarkdownChunker(max_tokens=max_tokens, count_tokens=direct).split(doc)
    )
    assert all(c.token_count == cl100k(c.text) <= max_tokens for c in fast)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(one_line_paragraphs(), st.sampled_from([8, 20, 60]))
def test_semantic_chunks_are_those_of_counting_every_candidate(text, max_tokens):
    doc = Document(doc_id="g", uri="urn:g", title="G", text=text)
    options = {
        "embedder": HashingEmbedder(),
        "max_tokens": max_tokens,
        "unit": "sentence",
        "threshold": 0.3,
    }
    fast = SemanticChunker(**options).split(doc)
    assert fields(fast) == fields(SemanticChunker(**options, count_tokens=direct).split(doc))
    assert all(c.token_count == cl100k(c.text) <= max_tokens for c in fast)
    assert all(
        Chunk.model_validate(c.model_dump()) == c for c in fast
    )  # built unvalidated: it would pass


def windows_by_reencoding(text: str, size: int, overlap: int) -> list[tuple[int, int, int]]:
    """The token windows as they were cut before: offsets from tiktoken, each window re-encoded."""
    encoding = cl100k_encoding()
    _, starts = encoding.decode_with_offsets(encoding.encode_ordinary(text))
    n, offset, out, i = len(starts), [*starts, len(text)], [], 0
    while i < n:
        j = min(i + size, n)
        while j > i + 1 and cl100k(text[offset[i] : offset[j]]) > size:
            j -= 1
        if text[offset[i] : offset[j]].strip():
            out.append((offset[i], offset[j], cl100k(text[offset[i] : offset[j]])))
        if j == n:
            break
        i = min(i + size - overlap, j)
    return out


@PROPERTY
@given(
    st.one_of(one_line_paragraphs(), document()),
    st.sampled_from([(200, 40), (50, 0), (8, 3), (3, 1)]),
)
def test_token_windows_are_those_of_reencoding_each_window(text, setting):
    size, overlap = setting
    chunks = FixedSizeChunker(size=size, overlap=overlap, unit="tokens").split(
        Document(doc_id="g", uri="urn:g", title="G", text=text)
    )
    assert [(c.start, c.end, c.token_count) for c in chunks] == windows_by_reencoding(
        text, size, overlap
    )
    assert all(
        Chunk.model_validate(c.model_dump()) == c for c in chunks
    )  # built unvalidated: it would pass


def test_token_windows_of_a_long_document_span_several_encoded_parts():
    text = real_text() * 3  # parts of a few hundred kB: windows are cut while later parts encode
    chunks = FixedSizeChunker(size=200, overlap=40, unit="tokens").split(
        Document(doc_id="g", uri="urn:g", title="G", text=text)
    )
    assert [(c.start, c.end, c.token_count) for c in chunks] == windows_by_reencoding(text, 200, 40)


# --- no candidate is encoded again ---------------------------------------------------------------


def long_line(sentences: int, seed: int = 0) -> str:
    """One paragraph of `sentences` varied sentences on a single line."""
    rng = random.Random(seed)
    vocabulary = [
        "leave",
        "policy",
        "approval",
        "manager",
        "days",
        "request",
        "travel",
        "ação",
        "the",
        "of",
        "employee",
        "90",
        "records",
        "within",
        "calendar",
        "Tokyo",
        "written",
        "notice",
    ]
    return (
        " ".join(
            " ".join(rng.choices(vocabulary, k=rng.randint(4, 18))).capitalize() + "."
            for _ in range(sentences)
        )
        + "\n"
    )


def test_a_long_line_is_packed_without_encoding_its_candidates_again(monkeypatch):
    """Before, each growing candidate was encoded from its start: 3.6x the text. Now only the short
    head and tail of each candidate are: a small fraction of the text, whatever its length."""
    text = long_line(20_000)
    encoding, encoded = cl100k_encoding(), []
    original = encoding.encode_ordinary
    monkeypatch.setattr(
        encoding, "encode_ordinary", lambda t: encoded.append(len(t)) or original(t)
    )
    chunks = MarkdownChunker(max_tokens=200).split(
        Document(doc_id="g", uri="urn:g", title="G", text=text)
    )
    assert len(chunks) > 1000
    assert sum(encoded) < 0.05 * len(text), (
        f"{sum(encoded) / len(text):.2f}x the text encoded again"
    )


def test_packing_a_paragraph_of_20000_sentences_on_one_line_is_linear():
    """4x the sentences may take at most 4.6x the time (CPU of this thread, median of 5 pairs)."""
    chunker = MarkdownChunker(max_tokens=200)
    small, large = (
        Document(doc_id="g", uri="urn:g", title="G", text=long_line(n, seed=n))
        for n in (5_000, 20_000)
    )

    def cpu(doc):
        start = time.thread_time()
        chunker.split(doc)
        return time.thread_time() - start

    best = float("inf")
    for _ in range(3):  # a median over the bound is measured again: noise does not repeat
        best = min(best, statistics.median(cpu(large) / cpu(small) for _ in range(5)))
        if best <= 4.6:
            break
    assert best <= 4.6, f"time grows {best:.2f}x for 4x the sentences"
