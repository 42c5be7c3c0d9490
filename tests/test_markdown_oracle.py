"""The block scanner against markdown-it-py (CommonMark + GFM tables) as the oracle.

Compared: the kind and the line span of every top-level block. Normalisation: markdown-it's list
spans may include one trailing blank line (its tokenizer swallows a blank line after a block);
blank lines hold no content, so trailing blank lines are trimmed from its spans before comparing.

Deliberate disagreements, each excluded from the comparison for a reason:
- front_matter: YAML front matter at the top of a file is metadata. Plain CommonMark reads it as a
  thematic break and a setext heading; here its lines are blanked for the oracle.
- reference: link reference definitions (`[x]: https://...`) produce no token in markdown-it, but
  they are text a chunker must not drop, so the scanner keeps them as blocks of their own.
"""

from pathlib import Path

import pytest
from conftest import DATA, REAL_DOCUMENTS
from hypothesis import HealthCheck, given, settings
from markdown_gen import document
from markdown_it import MarkdownIt

from chunklab.parsing.blocks import parse_blocks

MD = MarkdownIt("commonmark").enable("table")
KIND = {
    "heading_open": "heading",
    "paragraph_open": "paragraph",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "table_open": "table",
    "fence": "code",
    "code_block": "code",
    "blockquote_open": "quote",
    "html_block": "html",
    "hr": "rule",
}
NOT_IN_ORACLE = {"front_matter", "reference"}


def oracle(text: str) -> list[tuple[str, int, int]]:
    lines = text.split("\n")
    blocks = []
    for token in MD.parse(text):
        if token.level == 0 and token.type in KIND:
            first, end = token.map
            while end - 1 > first and not lines[end - 1].strip():
                end -= 1
            blocks.append((KIND[token.type], first, end - 1))
    return blocks


def ours(text: str) -> list[tuple[str, int, int]]:
    return [
        (b.kind, b.first_line, b.last_line)
        for b in parse_blocks(text)
        if b.kind not in NOT_IN_ORACLE
    ]


def for_oracle(text: str) -> str:
    blocks = parse_blocks(text)
    if blocks and blocks[0].kind == "front_matter":
        lines = text.split("\n")
        lines[: blocks[0].last_line + 1] = [""] * (blocks[0].last_line + 1)
        return "\n".join(lines)
    return text


REAL = sorted(DATA.glob("*.md"))


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_real_documents_agree_with_the_oracle(path: Path):
    text = path.read_text(encoding="utf-8")
    assert ours(text) == oracle(for_oracle(text))


def test_every_real_document_is_in_data():
    assert all((DATA / name).is_file() for name in REAL_DOCUMENTS)


@settings(
    max_examples=400, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
@given(document())
def test_generated_documents_agree_with_the_oracle(text):
    assert ours(text) == oracle(for_oracle(text))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("---\ntitle: x\n---\n# Real heading\n", [("front_matter", 0, 2), ("heading", 3, 3)]),
        ("Text [a].\n\n[a]: https://example.org\n", [("paragraph", 0, 0), ("reference", 2, 2)]),
    ],
)
def test_the_deliberate_disagreements(text, expected):
    assert [(b.kind, b.first_line, b.last_line) for b in parse_blocks(text)] == expected
