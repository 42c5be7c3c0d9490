"""Sentence windows: search single sentences, hand the model each hit with its neighbours.

Small-to-big's parent is a section, so the model reads the hit's whole heading. The sentence
window is the other common way to split the two jobs (LlamaIndex's `SentenceWindowNodeParser`
with its `MetadataReplacementPostProcessor`): each sentence is a child, searched on its own, and
its parent is the run of sentences around it, wherever the headings fall.

What LlamaIndex does (llama-index-core 0.14.25, run on the series' documents in notebook 03b):
NLTK's Punkt cuts the text into sentences (a numbered list's `3.` becomes a sentence of its own);
each becomes a node whose metadata `window` holds the sentences
`nodes[max(0, i - w) : min(i + w + 1, n)]` joined by spaces, with `window_size` w = 3 by default:
w sentences on each side, as documented. Only the sentence is embedded; after retrieval the
postprocessor replaces each hit's text by its window. Overlapping windows are not merged: two
neighbouring hits hand over their shared sentences twice.

Here, to fit chunklab's index and the Markdown the series reads:

- a sentence ends at `.`, `!` or `?` followed by white space, or at a blank line; the full stop of
  a numbered list marker (`1.`) ends nothing. A table with no full stop in it is one sentence
  (Punkt does not split it either, and glues it to the next sentence too);
- `before` and `after` sentences around the hit (both `window_size` by default, as in LlamaIndex;
  `after` sets another count after the hit);
- a window is the exact slice of the document from its first sentence's start to its last one's
  end, line breaks kept (a table stays a table, not rows joined by spaces);
- windows are stored as parents (`ParentChildIndex`), so two hits with the same window hand it over
  once; windows that only overlap are handed over whole, each, as in LlamaIndex.
"""

from __future__ import annotations

import re

from chunklab.contracts import Chunk, Document, as_document
from chunklab.retrieval.small_to_big import Paired
from chunklab.tokens.counters import TokenCounter, cl100k

SENTENCE_WINDOW = 3  # LlamaIndex's DEFAULT_WINDOW_SIZE
BOUNDARY = re.compile(r"(?<=[.!?])\s+|\n[ \t]*\n\s*")
LIST_MARKER = re.compile(r"[ \t]*\d+[.)]")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, white space trimmed, empty ones dropped."""
    cuts, pos = [], 0
    for m in BOUNDARY.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if LIST_MARKER.fullmatch(text, line_start, m.start()):
            continue  # "1. Check ..." : the marker's full stop does not end a sentence
        cuts.append((pos, m.start()))
        pos = m.end()
    cuts.append((pos, len(text)))
    spans = []
    for a, b in cuts:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            spans.append((a, b))
    return spans


def window_of(i: int, n: int, before: int, after: int) -> tuple[int, int]:
    """The sentences (first, last), both included, handed over for a hit on sentence i of n."""
    return max(0, i - before), min(n - 1, i + after)


def sentence_windows(
    doc: Document | str,
    window_size: int = SENTENCE_WINDOW,
    after: int | None = None,
    count_tokens: TokenCounter = cl100k,
) -> Paired:
    """Every sentence of `doc` as a child, its window (`window_size` sentences before it, `after`
    after it, `window_size` unless given) as its parent: ready for `index_document`."""
    if window_size < 0 or (after is not None and after < 0):
        raise ValueError(f"window sizes must be >= 0, got {window_size} and {after}")
    doc = as_document(doc)
    after = window_size if after is None else after
    spans = sentence_spans(doc.text)
    meta = {"strategy": "sentence-window", "tenant": doc.metadata.get("tenant", "default")}
    parents: dict[str, Chunk] = {}
    children = []
    for i, (a, b) in enumerate(spans):
        first, last = window_of(i, len(spans), window_size, after)
        parent_id = f"{doc.doc_id}#w{first}-{last}"
        if parent_id not in parents:
            start, end = spans[first][0], spans[last][1]
            parents[parent_id] = Chunk(
                chunk_id=parent_id,
                doc_id=doc.doc_id,
                ordinal=len(parents),
                text=doc.text[start:end],
                token_count=count_tokens(doc.text[start:end]),
                start=start,
                end=end,
                metadata=meta,
            )
        children.append(
            Chunk(
                chunk_id=f"{doc.doc_id}#s{i}",
                doc_id=doc.doc_id,
                parent_id=parent_id,
                ordinal=i,
                text=doc.text[a:b],
                token_count=count_tokens(doc.text[a:b]),
                start=a,
                end=b,
                metadata=meta,
            )
        )
    return Paired(list(parents.values()), children, len(children), 0)
