"""Prefixes: the text that tells a chunk where it came from, glued into the chunk itself.

Fields such as `doc_id` and `heading_path` serve you (citing, filtering); the model and the
retriever only ever see `text`. A table row that knows its header still cannot say which
document it belongs to, unless the chunk's text says so. Two kinds of prefix:

- the *heading path*: the document title and the headings above the chunk, taken from the
  section tree (`chunklab.parsing.sections`), so "2. Frequência" is a sibling of "1. Escopo";
- a *contextual* prefix (Anthropic's "contextual retrieval"): a sentence or two situating the
  chunk in its document. `contextualize(document, chunk) -> str` is pluggable; the offline
  default (`offline_context`) builds it from the title, the heading path and the section's lead.
  `LLMContext` is where a model call goes; nothing in this project calls one.

Either way the prefix is indexed and handed to the model with every hit: it is paid for k times
per query, and it counts inside the token budget (MarkdownChunker(prefix=...)).
"""

from __future__ import annotations

import re
import warnings
from bisect import bisect_right
from collections.abc import Callable, Sequence
from functools import lru_cache

from chunklab.contracts import Chunk, Document
from chunklab.parsing.sections import Section, build_outline
from chunklab.tokens.counters import TokenCounter, word_count
from chunklab.tokens.folding import fold
from chunklab.tokens.packing import SENTENCE_END, largest_fitting

Contextualizer = Callable[[Document, Chunk], str]

_ARTICLE_TITLE = re.compile(r"^(\d+)\.\s+(.*)$")
# The fix also reads the titles the article's pattern never sees: "2.1 Visual", "2.1. Visual".
# At least one dot, so a paragraph opening with "30 dias" is not a title.
_NUMBERED_TITLE = re.compile(r"^(\d+\.(?:\d+\.)*(?:\d+)?)\s+(.*)$")


def article_path_chunks(doc: Document, fixed: bool = False) -> list[Chunk]:
    """The article's `build_path_chunks` (section 9): one chunk per paragraph, path prefix first.

    Its bug, kept when `fixed=False`: the level of a numbered title is the *value* of its number,
    so "2. Frequência" becomes level 2 and nests under "1. Escopo", and "3." under both. With
    `fixed=True` the level is the *depth* of the number (how many parts "2" or "2.1" has), the
    rule `chunklab.parsing.blocks.explicit_headings` uses: "2." and "3." are then siblings, and
    "2.1" or "2.1." (which the article's pattern does not read as a title at all) sits under "2.".
    Everything else is the article's: paragraphs split on blank lines, a title-only paragraph
    skipped, the document's first line as the title, words as "tokens". A title-only paragraph
    that no chunk's path ever holds (a one-line list item "1. Desligue." read as a title, then
    replaced by the next) is text in no chunk: with `fixed=True` that is warned, not silent.
    """
    stack: list[tuple[int, str]] = []  # (level, entry) of each open title
    unseen: dict[str, None] = {}  # titles alone in their paragraph, in no chunk's path yet
    title = doc.text.splitlines()[0].strip()
    chunks: list[Chunk] = []
    for ordinal, (paragraph, at) in enumerate(_paragraphs(doc.text)):
        lines = paragraph.splitlines()
        heading = (_NUMBERED_TITLE if fixed else _ARTICLE_TITLE).match(lines[0])
        if heading and not paragraph.startswith("|"):
            number = heading.group(1)
            if fixed:  # "2." -> 1, "2.1" and "2.1." -> 2: the depth of the number
                level, entry = number.rstrip(".").count(".") + 1, f"{number} {heading.group(2)}"
            else:  # the article's: the value of the number, written back with its dot
                level, entry = int(number), f"{number}. {heading.group(2)}"
            if fixed:  # by level, not by place: "2.1.1" after "2." (no "2.1") sits under "2."
                stack = [(lv, e) for lv, e in stack if lv < level] + [(level, entry)]
            else:  # the article's: the stack cut at position level - 1
                stack = stack[: level - 1] + [(level, entry)]
            body = "\n".join(lines[1:]).strip()
            if not body:
                unseen[entry] = None
                continue
        else:
            body = paragraph
        prefix = " > ".join([title, *(entry for _, entry in stack)])
        for _, entry in stack:
            unseen.pop(entry, None)
        text = f"{prefix}\n{body}"
        start = doc.text.index(body, at)
        chunks.append(
            Chunk(
                chunk_id=f"{doc.doc_id}#{ordinal}",
                doc_id=doc.doc_id,
                ordinal=ordinal,
                text=text,
                token_count=word_count(text),
                start=start,
                end=start + len(body),
                metadata={"path": prefix},
            )
        )
    if fixed and unseen:
        warnings.warn(
            f"{len(unseen)} numbered lines read as titles alone are in no chunk: {list(unseen)}",
            stacklevel=2,
        )
    return chunks


def _paragraphs(text: str) -> list[tuple[str, int]]:
    """The article's paragraphs (split on blank lines, stripped, empties dropped), with offsets."""
    out, pos = [], 0
    for raw in text.split("\n\n"):
        if raw.strip():
            out.append((raw.strip(), pos + len(raw) - len(raw.lstrip())))
        pos += len(raw) + 2
    return out


# --- contextual prefixes --------------------------------------------------------------------------


@lru_cache(maxsize=32)
def _sections(text: str, doc_id: str, title: str) -> tuple[tuple[Section, ...], list[int]]:
    """The document's sections and where each starts (cached: called once per chunk)."""
    sections = build_outline(text, doc_id, title).sections
    return sections, [s.start for s in sections]


def section_at(doc: Document, offset: int) -> Section | None:
    """The section whose own text holds `offset` (the last one starting at or before it)."""
    sections, starts = _sections(doc.text, doc.doc_id, doc.title)
    k = bisect_right(starts, offset)
    return sections[k - 1] if k else None


def section_lead(section: Section | None, source: str, max_words: int = 25) -> str:
    """The first sentence of the section's first paragraph, at most `max_words` words."""
    if section is None:
        return ""
    paragraph = next((b for b in section.blocks if b.kind == "paragraph"), None)
    if paragraph is None:
        return ""
    text = " ".join(source[paragraph.start : paragraph.end].split())
    end = SENTENCE_END.search(text)
    sentence = text[: end.end()].strip() if end else text
    words = sentence.split()
    return " ".join(words[:max_words]) + (" …" if len(words) > max_words else "")


def offline_context(document: Document, chunk: Chunk) -> str:
    """A contextual prefix with no model: where the chunk sits, and what its section is about.

    "From <title>, section <heading path>. The section begins: <lead>." The lead is left out when
    the chunk already holds it (it would say the same thing twice), and so is a heading-path entry
    equal to the title.
    """
    section = section_at(document, chunk.start)
    path = chunk.heading_path or (section.heading_path if section else ())
    title = document.title or document.doc_id
    path = tuple(p for p in path if fold(p) != fold(title))  # the title is said once
    where = f"From {title}" + (f", section {' > '.join(path)}" if path else "") + "."
    lead = section_lead(section, document.text)
    if lead and lead.removesuffix(" …") not in " ".join(chunk.text.split()):
        return f"{where} The section begins: {lead}"
    return where


CONTEXT_PROMPT = """Here is a whole document:
<document>
{document}
</document>
Here is one chunk of it:
<chunk>
{chunk}
</chunk>
In one or two sentences, say where this chunk sits in the document and what it is about, so that
the chunk can be found by a search and understood on its own. Reply with those sentences only."""


class LLMContext:
    """The place for a model-written contextual prefix: `LLMContext(complete)` is a contextualizer.

    `complete(prompt) -> str` is any function that sends a prompt to a model and returns its
    reply (your provider's SDK, a local model). chunklab ships none and never calls one: tests
    pass a fake. Prompt caching matters here, since the document is repeated for every chunk.
    """

    def __init__(self, complete: Callable[[str], str], prompt: str = CONTEXT_PROMPT) -> None:
        self.complete = complete
        self.prompt = prompt

    def __call__(self, document: Document, chunk: Chunk) -> str:
        reply = self.complete(self.prompt.format(document=document.text, chunk=chunk.text))
        return " ".join(str(reply).split())


def fit_prefix(prefix: str, fits: Callable[[str], bool]) -> str:
    """`prefix` if `fits(prefix)`, else its longest cut at a word boundary, ending in "…", that
    fits; "" when not even one word does. Checked with the caller's own measure, so it is exact."""
    if fits(prefix):
        return prefix
    words = prefix.split(" ")
    n = largest_fitting(len(words) - 1, lambda n: fits(" ".join(words[:n]) + " …"))
    if n and words[n - 1].endswith(":"):
        # "The section begins: …" announces what no longer follows: keep the whole sentences
        # before the label instead, and spend no tokens on it.
        whole = max((i + 1 for i in range(n - 1) if words[i].endswith(".")), default=0)
        return " ".join(words[:whole])
    return " ".join(words[:n]) + " …" if n else ""


def with_context(
    chunks: Sequence[Chunk],
    doc: Document,
    contextualize: Contextualizer = offline_context,
    count_tokens: TokenCounter = word_count,
    max_tokens: int | None = None,
) -> list[Chunk]:
    """Any chunker's chunks with a contextual prefix glued in front (a blank line between).

    With `max_tokens`, the prefix is shortened so the chunk stays within it (the chunk's own text
    is never cut); a chunk already at the budget gets no prefix. Offsets keep pointing at the
    chunk's own text in the document.
    """
    out = []
    for chunk in chunks:
        prefix = contextualize(doc, chunk)
        if max_tokens is not None:

            def fits(p: str, body: str = chunk.text, limit: int = max_tokens) -> bool:
                return count_tokens(f"{p}\n\n{body}") <= limit

            prefix = fit_prefix(prefix, fits)
        text = f"{prefix}\n\n{chunk.text}" if prefix else chunk.text
        meta = {**chunk.metadata, "prefix": prefix}
        out.append(
            chunk.model_copy(
                update={"text": text, "token_count": count_tokens(text), "metadata": meta}
            )
        )
    return out


def prefix_tokens(chunks: Sequence[Chunk], count_tokens: TokenCounter) -> list[int]:
    """Tokens each chunk spends on its prefix: its count minus that of its text without it."""
    out = []
    for c in chunks:
        prefix = c.metadata.get("prefix", "")
        body = (
            c.text[len(prefix) :].lstrip("\n") if prefix and c.text.startswith(prefix) else c.text
        )
        out.append(count_tokens(c.text) - count_tokens(body))
    return out
