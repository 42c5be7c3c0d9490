import os
import re
import subprocess
import sys
from collections import Counter

import pytest
from conftest import DATA, REAL_DOCUMENTS, ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_gen import document
from pydantic import ValidationError

from chunklab import Chunk, Document, cl100k, load_document, word_count
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.parsing.sections import build_outline, plain_title

PROPERTY = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def normalise(text: str) -> str:
    return " ".join(text.split())


def body(text: str, title: str = "G") -> str:
    """The words a reader sees: front matter dropped (it is metadata) and each heading replaced by
    its title (the `#` marks and setext underlines are syntax; the breadcrumb carries the title).
    A heading that is only a template tag reads as the document's title."""
    outline = build_outline(text, "g", title)
    parts, pos = [], len(outline.front_matter)
    for heading in (s.heading for s in outline.sections if s.heading is not None):
        parts += [text[pos : heading.start], heading.title]
        pos = heading.end
    return "".join(parts) + text[pos:]


def check_guarantees(text: str, max_tokens: int, count=cl100k, prefix="path"):
    doc = Document(doc_id="g", uri="urn:g", title="G", text=text)
    chunks = MarkdownChunker(max_tokens=max_tokens, count_tokens=count, prefix=prefix).split(doc)
    for c in chunks:
        assert Chunk.model_validate(c.model_dump()) == c  # built unvalidated: prove it would pass
        assert c.token_count <= max_tokens, c.text
        assert c.token_count == count(c.text), c.text
        assert normalise(text[c.start : c.end]) in normalise(c.text)
    # Nothing lost: every word of the body that fits in half the budget appears at least as often.
    # A heading's title is its words without link syntax (`plain_title`): in a breadcrumb it is
    # written so, in a heading line kept in a chunk's text as the source writes it.
    have = Counter(w for c in chunks for w in c.text.split())
    have |= Counter(w for c in chunks for w in plain_title(c.text).split())
    for word, n in Counter(body(text).split()).items():
        if count(word) <= max_tokens // 2:
            assert have[word] >= n, word
    return chunks


@PROPERTY
@given(document(), st.sampled_from([8, 12, 20, 40, 200]))
def test_guarantees_on_generated_markdown(text, max_tokens):
    check_guarantees(text, max_tokens)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(document(), st.sampled_from([8, 12, 40, 200]), st.sampled_from(["none", "context"]))
def test_guarantees_with_no_prefix_and_with_a_contextual_prefix(text, max_tokens, prefix):
    check_guarantees(text, max_tokens, prefix=prefix)


@PROPERTY
@given(document(), st.sampled_from([8, 15, 60]))
def test_guarantees_with_the_word_counter(text, max_tokens):
    check_guarantees(text, max_tokens, count=word_count)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.text(alphabet="ab é|\n-#", min_size=1, max_size=30), min_size=1, max_size=6),
    st.sampled_from([8, 10]),
)
def test_a_heading_path_longer_than_the_budget_is_shortened(titles, max_tokens):
    text = "".join(
        f"{'#' * min(6, n + 1)} {t.strip() or 'x'} very long heading words here\n\nbody {n}\n\n"
        for n, t in enumerate(titles)
    )
    check_guarantees(text.replace("\n#", "\n\n#"), max_tokens)


def test_travel_policy_children_carry_breadcrumbs_and_parents():
    doc = load_document("travel_policy")
    chunks = MarkdownChunker(max_tokens=200).split(doc)
    per_diem = next(c for c in chunks if "Tokyo" in c.text)
    assert per_diem.text.startswith("Travel Policy > International Travel > Per diem\n\n")
    assert per_diem.parent_id == "travel_policy#travel-policy/international-travel/per-diem"
    assert per_diem.heading_path == ("Travel Policy", "International Travel", "Per diem")


def test_tables_split_between_rows_repeat_the_header():
    doc = load_document("travel_policy")
    rows = [c for c in MarkdownChunker(max_tokens=45).split(doc) if "| City |" in c.text]
    assert len(rows) == 4 and all("|---|---|---|" in c.text for c in rows)


def test_code_split_between_lines_reopens_the_fence():
    code = "\n".join(f"value_{n} = compute({n}) + offset" for n in range(40))
    doc = Document(doc_id="c", uri="urn:c", title="C", text=f"# Code\n\n```python\n{code}\n```\n")
    chunks = MarkdownChunker(max_tokens=60).split(doc)
    assert len(chunks) > 1
    for c in chunks:
        assert "```python\n" in c.text and c.text.endswith("\n```")


def test_max_tokens_too_small_is_a_validation_error():
    with pytest.raises(ValidationError, match="greater than or equal to 8"):
        MarkdownChunker(max_tokens=0)


def test_same_chunks_in_every_process():
    script = (
        "from chunklab import load_document; "
        "from chunklab.chunkers.markdown import MarkdownChunker;"
        "print([c.model_dump_json() "
        "for c in MarkdownChunker(max_tokens=40).split(load_document('travel_policy'))])"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outs) == 1 and len(next(iter(outs))) > 100


def test_every_corpus_document_meets_the_guarantees():
    for name in REAL_DOCUMENTS:
        for max_tokens in (50, 200):
            check_guarantees((DATA / name).read_text(encoding="utf-8"), max_tokens)


def test_explicit_headings_turn_the_manual_into_sections_and_a_real_table():
    from chunklab.parsing.blocks import with_explicit_headings

    doc = with_explicit_headings(load_document("manual"))
    outline = build_outline(doc.text, doc.doc_id)
    assert [s.heading_path[-1] for s in outline.sections] == [
        "MANUAL DE OPERAÇÕES",
        "1. Escopo",
        "2. Frequência",
        "3. Tabela de tolerância",
        "4. Registro",
    ]
    assert all(s.level == 2 for s in outline.sections[1:])  # siblings, whatever their number
    table_chunks = [c for c in MarkdownChunker(max_tokens=60).split(doc) if "|" in c.text]
    with_header = [c for c in table_chunks if "| Medida |" in c.text]
    # Every row that fits beside the header gets it; only the widest row is cut bare.
    assert len(table_chunks) == 4 and len(with_header) == 3
    bare = [c for c in table_chunks if "| Medida |" not in c.text]
    assert len(bare) == 1 and "0,08" in bare[0].text


def test_an_unclosed_fence_ending_in_an_info_string_line_loses_nothing():
    lines = "\n".join(f"step_{n} = run({n})" for n in range(30))
    text = f"# Code\n\n```\n{lines}\n```python trailing words kept"
    chunks = check_guarantees(text, 40)
    assert any("trailing words kept" in c.text for c in chunks)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(document(), st.sampled_from([12, 40, 200]), st.sampled_from(["linearize", "whole"]))
def test_guarantees_in_the_other_table_modes(text, max_tokens, mode):
    doc = Document(doc_id="g", uri="urn:g", title="G", text=text)
    chunks = MarkdownChunker(max_tokens=max_tokens, table_mode=mode).split(doc)
    for c in chunks:
        assert c.token_count == cl100k(c.text) <= max_tokens
    if mode == "whole":
        for c in chunks:
            assert normalise(text[c.start : c.end]) in normalise(c.text)
    # Linearize drops table delimiter rows by design; every other word must still be there.
    delimiter = re.compile(r"^[\s|:-]+$")
    have = Counter(w for c in chunks for w in c.text.split())
    have |= Counter(w for c in chunks for w in plain_title(c.text).split())  # as above
    kept = "\n".join(
        line
        for line in body(text).split("\n")
        if not (mode == "linearize" and delimiter.match(line) and "-" in line)
    )
    for word, n in Counter(kept.split()).items():
        if cl100k(word) <= max_tokens // 2:
            assert have[word] >= n, word
