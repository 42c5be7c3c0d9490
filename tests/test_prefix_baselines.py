"""06b's clean "cut alone" baseline: the path's chunks, with none's heading lines written back."""

import pytest

from chunklab import list_documents, load_document
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.teaching.prefix_baselines import path_cut_headings_kept


@pytest.mark.parametrize("name", ["travel_policy", "manual_md", "sensitive_code"])
def test_headings_kept_has_the_paths_cut_and_nones_heading_lines(name):
    assert name in list_documents()
    doc = load_document(name)
    kept = path_cut_headings_kept(doc).searched
    path = MarkdownChunker(max_tokens=100, prefix="path").split(doc)
    none = MarkdownChunker(max_tokens=100, prefix="none").split(doc)
    assert [c.chunk_id for c in kept] == [c.chunk_id for c in path]  # the path's cut
    outline = MarkdownChunker(max_tokens=100).outline(doc)
    for s in outline.sections:
        if s.heading:
            line = outline.source[s.heading.start : s.heading.end]
            in_none = sum(c.text.count(line) for c in none)
            assert sum(c.text.count(line) for c in kept) == in_none, line
    assert not any(
        c.text.startswith(c.metadata["prefix"] + "\n") for c in kept if c.metadata["prefix"]
    )
