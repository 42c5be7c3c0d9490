from chunklab import load_document
from chunklab.parsing.blocks import parse_blocks, split_cells


def kinds(text):
    return [
        (b.kind, b.level, b.title) if b.kind == "heading" else b.kind for b in parse_blocks(text)
    ]


def test_every_block_knows_its_exact_span():
    text = "# Title\n\nA paragraph\nover two lines.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    blocks = parse_blocks(text)
    assert [b.text(text) for b in blocks] == [
        "# Title",
        "A paragraph\nover two lines.",
        "| a | b |\n|---|---|\n| 1 | 2 |",
    ]


def test_atx_and_setext_headings_with_levels_and_titles():
    text = "# One #\n\n### Three\n\nTwo\n---\n\nAlso one\n===\n"
    assert kinds(text) == [
        ("heading", 1, "One"),
        ("heading", 3, "Three"),
        ("heading", 2, "Two"),
        ("heading", 1, "Also one"),
    ]


def test_hash_lines_inside_a_fence_are_code_and_an_unclosed_fence_runs_to_the_end():
    text = "```\n# not a heading\n```\n\n~~~yaml\n# also code\nkey: value\n"
    blocks = parse_blocks(text)
    assert [b.kind for b in blocks] == ["code", "code"]
    assert blocks[1].last_line == 6


def test_tables_with_and_without_outer_pipes_and_under_a_sentence():
    assert kinds("a | b\n--|--\n1 | 2\n") == ["table"]
    assert kinds("Limits below:\n| a | b |\n|---|---|\n| 1 | 2 |\n") == ["paragraph", "table"]
    assert kinds("| only | header |\n|---|---|\n") == ["table"]


def test_lists_keep_continuations_and_nested_items():
    text = "- one\n  continued\n  - nested\n- two\n\nafter\n"
    blocks = parse_blocks(text)
    assert [(b.kind, b.first_line, b.last_line) for b in blocks] == [
        ("list", 0, 3),
        ("paragraph", 5, 5),
    ]


def test_quote_html_rule_front_matter():
    text = "---\ntitle: x\n---\n> quoted\nlazy\n\n<div>\nhtml\n</div>\n\n***\n"
    assert [b.kind for b in parse_blocks(text)] == ["front_matter", "quote", "html", "rule"]


def test_the_manual_is_an_ordered_list_under_commonmark():
    # "1. Escopo" starts an ordered list item; the table lines are lazy continuation lines of
    # item 3's paragraph, so under CommonMark the manual has no headings and no table at all.
    manual = load_document("manual")
    assert [b.kind for b in parse_blocks(manual.text)] == ["paragraph", "list"]


def test_split_cells_handles_escaped_pipes_and_empty_cells():
    assert split_cells("| a \\| b | | c |") == ["a \\| b", "", "c"]
    assert split_cells("x | y") == ["x", "y"]


def test_offsets_are_exact_with_crlf_line_endings():
    text = "# T\r\n\r\nPara\r\n"
    blocks = parse_blocks(text)
    assert [b.text(text) for b in blocks] == ["# T", "Para"]
