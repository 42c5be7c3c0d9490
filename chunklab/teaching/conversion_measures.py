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


def plain(text: str) -> str:
    """A text's words only, space-padded: a fact is found word by word, markup not counted."""
    return " " + " ".join(words(text)) + " "


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


def kept(source: str, converted: str) -> dict:
    """One conversion against its source, as notebook 08's table reads it: headings and table rows
    kept (found / in the source), extra headings (the source lacks them), the same heading order,
    the share of the source's words kept, and the words lost."""
    ours, theirs = headings(converted), headings(source)
    rows, source_rows = table_rows(converted), table_rows(source)
    kept_words = set(words(converted))
    return {
        "headings kept": f"{sum(h in ours for h in theirs)}/{len(theirs)}",
        "extra headings": [f"level {lv}: {t[:45]} …" for lv, t in ours if (lv, t) not in theirs],
        "same heading order": ours == theirs,
        "table rows kept": f"{sum(r in rows for r in source_rows)}/{len(source_rows)}",
        "words kept": round(sum(w in kept_words for w in words(source)) / len(words(source)), 3),
        "words lost": sorted({w for w in words(source) if w not in kept_words}),
    }
