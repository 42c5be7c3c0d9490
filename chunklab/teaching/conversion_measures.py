"""What a conversion kept, counted the same way for every format: words, headings, table rows.

A converted file is compared with its source (or with a second reader's text) on what a chunker
and a search depend on, not on its characters: markup differs between formats (`<br>`, link
syntax, table pipes), so every measure first reduces a text to its folded words. Notebooks 08 and
08b count what HTML, Word and PDF kept with these three helpers.
"""

import re

from chunklab.parsing.blocks import parse_blocks
from chunklab.tokens.folding import fold

_LINK = re.compile(r"\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])")  # [words](url) or [words][ref]
_TABLE_RULE = re.compile(r"\|[\s:|-]+\|?")  # |---|:--| under a table's header
# A reference link's definition, on a line of its own: "[code-owners]: https://..."
_LINK_DEFINITION = re.compile(r"(?m)^ {0,3}\[[^\]]+\]:[ \t]*\S+.*$")


def words(text: str) -> list[str]:
    """The words of a text, accents folded, link addresses and table markup left out.

    A link keeps its words and drops its address, because one format writes the address inline
    and another at the page's foot (a definition line, dropped whole): the words a reader sees
    are the same.
    """
    text = _LINK.sub(r"\1", _LINK_DEFINITION.sub("", text))
    return re.findall(r"\w+", fold(text.replace("<br>", " ")))


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, words) of every heading the chunker will see: `#` headings and underlined ones."""
    return [
        (b.level, " ".join(words(b.title))) for b in parse_blocks(markdown) if b.kind == "heading"
    ]


def table_rows(markdown: str) -> list[list[str]]:
    """Every Markdown table row (the header included, the `|---|` rule not), as its cells' words."""
    return [
        [" ".join(words(cell)) for cell in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        for line in markdown.splitlines()
        if line.startswith("|") and not _TABLE_RULE.fullmatch(line)
    ]
