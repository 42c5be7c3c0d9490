"""The shortcuts the budget takes to count in linear time, each checked against counting
directly."""

import gc
import random
from bisect import bisect_left

import numpy as np
import pytest
from conftest import DATA
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_gen import document
from pydantic import ValidationError

import chunklab.tokens.budget as budget_module
import chunklab.tokens.encoding as encoding_module
from chunklab import Chunk, Document, cl100k, word_count
from chunklab.chunkers.collector import gc_paused
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.parsing.sections import build_outline
from chunklab.tokens.budget import SourceBudget
from chunklab.tokens.counters import cl100k_encoding
from chunklab.tokens.encoding import PART_BOUNDARY, DocumentTokens, part_ends

PROPERTY = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def long_markdown() -> str:
    """Every Markdown file of the series' data, joined (~80 kB)."""
    paths = sorted(DATA.glob("*.md"))
    return "\n\n".join(p.read_text(encoding="utf-8") for p in paths)


# --- the document encoded part by part ----------------------------------------------------------


def test_parts_encode_to_exactly_the_tokens_of_the_whole():
    text = long_markdown()
    ends = part_ends(text, smallest=200)
    assert len(ends) > 5 and ends[-1] == len(text)
    encoding = cl100k_encoding()
    begins = [0, *ends[:-1]]
    assert all(PART_BOUNDARY.match(text, end - 1) for end in ends[:-1])  # cut after "\n", before \S
    joined = [
        t for a, b in zip(begins, ends, strict=True) for t in encoding.encode_ordinary(text[a:b])
    ]
    assert joined == encoding.encode_ordinary(text)


@PROPERTY
@given(document(), st.integers(1, 40))
def test_parts_of_generated_markdown_encode_like_the_whole(text, smallest):
    encoding = cl100k_encoding()
    ends = part_ends(text, smallest=smallest)
    begins = [0, *ends[:-1]]
    joined = [
        t for a, b in zip(begins, ends, strict=True) for t in encoding.encode_ordinary(text[a:b])
    ]
    assert joined == encoding.encode_ordinary(text)


def test_the_first_part_is_smaller_than_half_and_later_parts_shrink():
    text = long_markdown()
    ends = part_ends(text, smallest=200)
    sizes = [b - a for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    assert sizes[0] < len(text) / 2
    assert all(later <= earlier for earlier, later in zip(sizes[1:-2], sizes[2:-1], strict=True))


def test_no_part_is_much_longer_than_the_cap():
    """A part is cut at the first boundary after the cap: it overshoots the cap by less than the
    longest stretch of text between two boundaries (an indented block in data/SOURCES.md)."""
    text = long_markdown()
    ends = part_ends(text, smallest=200, largest=5000)
    sizes = [b - a for a, b in zip([0, *ends[:-1]], ends, strict=True)]
    bounds = [0, *(m.end() for m in PART_BOUNDARY.finditer(text)), len(text)]
    stretch = max(b - a for a, b in zip(bounds, bounds[1:], strict=False))
    assert stretch < 5000 / 2, "the series' text should hold boundaries every few lines"
    assert len(ends) > 10 and max(sizes[:-1]) <= 5000 + stretch and ends[-1] == len(text)


def test_counts_between_byte_offsets_match_the_whole_encoding():
    text = long_markdown()
    raw = text.encode("utf-8")
    encoding = cl100k_encoding()
    starts = np.cumsum(
        [0] + [len(encoding.decode_single_token_bytes(t)) for t in encoding.encode_ordinary(text)]
    )
    starts = starts[:-1].tolist()
    tokens = DocumentTokens(text)
    line_bytes = [0] + [k + 1 for k, byte in enumerate(raw) if byte == 10]
    rng = random.Random(0)
    for _ in range(300):  # in any order: later parts first, then earlier ones
        a, b = sorted(rng.sample(line_bytes, 2))
        assert tokens.between(a, b) == bisect_left(starts, b) - bisect_left(starts, a)
    assert tokens.between(0, len(raw) + 10) == len(starts)  # past the end: every token, no wait


def test_an_encoding_error_reaches_the_caller_instead_of_a_hang(monkeypatch):
    class Broken:
        def encode_to_numpy(self, text, disallowed_special=()):
            raise RuntimeError("encoder broke")

    monkeypatch.setattr(encoding_module, "cl100k_encoding", lambda: Broken())
    tokens = DocumentTokens("some text\nmore text\n")
    with pytest.raises(RuntimeError, match="encoder broke"):
        tokens.between(0, 5)


# --- breadcrumbs counted from the parent's count --------------------------------------------------

TRICKY_HEADINGS = "\n\n".join(
    [
        "# Top",
        "##\tA tab before the title",
        "## Closed ##",
        "## Ação: é?",
        "Setext title\n---",
        "### \u00a0after a no-break space",
        "#### Ends with a full stop.",
        "## a\u2003b wide space",
        "## Trailing spaces   ",
        "###   three spaces",
        "## 2. Frequência",
        "## ?",
        "## C#",
        "text",
        "# Second top",
        "### skipped a level",
        "## (parenthesis)",
        "## 100 %",
    ]
)


def full_paths(text: str, count=cl100k):
    """Every section's full breadcrumb, as MarkdownChunker builds it while it splits."""
    chunker = MarkdownChunker(max_tokens=4000, count_tokens=count)
    budget = SourceBudget(text, count)
    paths = {}
    for section in build_outline(text, "t").sections:
        chunker._breadcrumb(section, paths, budget)
        yield section, paths[section.section_id]


@pytest.mark.parametrize("count", [cl100k, word_count])
def test_breadcrumb_counts_are_true_counts_on_tricky_headings(count):
    seen = 0
    for section, path in full_paths(TRICKY_HEADINGS, count):
        assert path.text == section.breadcrumb
        assert path.count == count(path.text), path.text
        seen += 1
    assert seen >= 15


def test_breadcrumb_counts_are_true_counts_on_every_real_document():
    for _section, path in full_paths(long_markdown()):
        assert path.count == cl100k(path.text), path.text


@PROPERTY
@given(document())
def test_breadcrumb_counts_are_true_counts_on_generated_markdown(text):
    for _, path in full_paths(text):
        assert path.count == cl100k(path.text), path.text


# --- which sections without content get a chunk of their heading ----------------------------------


def heading_only_sections(text: str, max_tokens: int) -> tuple[set[str], set[str]]:
    """(sections whose only chunk is their heading, the ones the rule says should have one)."""
    chunker = MarkdownChunker(max_tokens=max_tokens)
    outline = chunker.outline(Document(doc_id="t", uri="urn:t", title="T", text=text))
    budget = SourceBudget(text, cl100k)
    paths, full = {}, {}
    for s in outline.sections:
        full[s.section_id] = chunker._breadcrumb(s, paths, budget)[1]
    by_id = {s.section_id: s for s in outline.sections}
    carried = set()  # the rule, written the slow way: titles in a full breadcrumb of content
    for s in outline.sections:
        node = s if s.blocks and full[s.section_id] else None
        while node is not None:
            carried.add(node.section_id)
            node = by_id.get(node.parent_id)
    expected = {
        s.section_id
        for s in outline.sections
        if s.heading is not None
        and not s.blocks
        and (not full[s.section_id] or s.section_id not in carried)
    }
    chunks = chunker.split(Document(doc_id="t", uri="urn:t", title="T", text=text))
    got = {c.parent_id for c in chunks if not by_id[c.parent_id].blocks}
    order = [c.parent_id for c in chunks]
    position = {s.section_id: k for k, s in enumerate(outline.sections)}
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))
    assert order == sorted(order, key=position.__getitem__)  # chunks follow the sections' order
    return got, expected


@PROPERTY
@given(document(), st.sampled_from([8, 12, 20, 200]))
def test_a_section_without_content_gets_a_chunk_exactly_when_the_rule_says(text, max_tokens):
    got, expected = heading_only_sections(text, max_tokens)
    assert got == expected


def test_the_rule_on_nested_empty_sections():
    text = "# A\n\n## B\n\n### C\n\nbody of C\n\n## D\n\n# E\n\n## F\n\ntext of F"
    got, expected = heading_only_sections(text, 200)
    assert got == expected == {"t#a/d"}  # B is carried by C's breadcrumb, A by C's and F's


# --- records built without validation -------------------------------------------------------------


def test_trusted_records_equal_validated_ones_and_need_every_field():
    values = dict(
        chunk_id="d-c0",
        doc_id="d",
        parent_id="d#s",
        ordinal=0,
        text="x",
        token_count=1,
        heading_path=("S",),
        start=0,
        end=1,
        metadata={},
    )
    trusted = Chunk.trusted(**values)
    assert trusted == Chunk(**values) and trusted.model_dump() == Chunk(**values).model_dump()
    assert repr(trusted) == repr(Chunk(**values))
    with pytest.raises(TypeError, match="needs every field"):
        Chunk.trusted(**{k: v for k, v in values.items() if k != "metadata"})
    with pytest.raises(ValidationError):
        trusted.model_copy(update={"text": "y"}).__setattr__("text", "z")  # still frozen


def test_gc_paused_restores_the_callers_setting():
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()
    MarkdownChunker().split(Document(doc_id="d", uri="urn:d", title="D", text="# T\n\ntext"))
    assert gc.isenabled()


def test_an_empty_section_is_kept_when_its_subsection_breadcrumb_is_shortened():
    long_title = "A subsection title far too long to fit in half of a small budget"
    text = f"# A\n\n## {long_title}\n\nsome text"
    got, expected = heading_only_sections(text, 16)
    assert got == expected == {"t#a"}  # the subsection's breadcrumb is shortened: it carries no "A"


@PROPERTY
@given(
    st.text(
        alphabet=["a", "Z", "9", ".", ":", " ", "\t", "é", "…", "|", ")", "\r", "٣", "²", "Ⅳ"],
        max_size=8,
    )
)
def test_the_fast_paths_of_tail_agree_with_its_pattern(text):
    m = budget_module._TAIL.search(text)
    assert budget_module.tail(text) == (m.group(0) if m else "")


def test_every_chunk_of_a_section_asks_for_its_own_contextual_prefix():
    def contextualize(doc, chunk):  # nothing for a section's first chunk, a sentence for the others
        return "" if chunk.chunk_id.endswith("-c0") else "Context here."

    text = "# T\n\n" + "\n\n".join(f"Paragraph {k} has a few words of its own." for k in range(12))
    chunks = MarkdownChunker(max_tokens=40, prefix="context", contextualize=contextualize).split(
        Document(doc_id="d", uri="urn:d", title="D", text=text)
    )
    assert len(chunks) >= 3
    assert [c.metadata["prefix"] for c in chunks] == [""] + ["Context here."] * (len(chunks) - 1)


@pytest.mark.parametrize("right", ["\n  - DOCX (`documents.docx`): `mammoth`", " indented", "\tx"])
def test_a_join_whose_right_side_starts_with_white_space_is_counted_exactly(right):
    # A file cut inside a docstring gives CodeChunker a span that starts with a newline; cl100k
    # merges the breadcrumb's "\n\n" with it, so the sum of the parts was one token off (hypothesis
    # found it on a prefix of chunklab/documents/convert.py at 32 tokens).
    budget = SourceBudget("convert.py", cl100k)
    left, piece = budget.text("convert.py"), budget.text(right)
    joined = budget.join(left, "\n\n", piece)
    assert joined.count == cl100k(joined.text)
    within = budget.join_within(left, "\n\n", piece, limit=10_000)
    assert within is not None and within.count == cl100k(within.text)
