"""Companion 04d's section 2: what each breakpoint rule does to the series' pipe tables, with
line units. Per document with a table: the cuts and the orphans (rows cut off from their header)
under WordLlama at the article's 0.6 threshold and at percentile 80, under MiniLM at 0.6 (the
threshold on another model's scale), and under the hash at percentile 80 (a model that knows no
meaning), and the gaps between two table rows, from which the notebook computes the skeptic's
floor: the chance that as many random cuts as WordLlama's percentile 80 leave them all uncut."""

from __future__ import annotations

import re
from typing import Any

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.chunkers.tables import orphans
from chunklab.documents.series import list_documents, load_document
from chunklab.embeddings.memo import EmbedOnce
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.static import HashingEmbedder, WordLlamaEmbedder

_TABLE_RULE = re.compile(r"^\s*\|[\s:|-]+\|\s*$", re.M)  # a pipe table's header rule


def table_orphans() -> Any:
    """One row per document with a pipe table (see the module's docstring)."""
    import pandas as pd

    wordllama = EmbedOnce(WordLlamaEmbedder())  # each line embedded once for both rules
    runs = [
        ("WordLlama", wordllama, "threshold 0.6", {"breakpoint": "threshold"}),
        ("WordLlama", wordllama, "percentile 80", {}),
        ("MiniLM", EmbedOnce(MiniLMEmbedder()), "threshold 0.6", {"breakpoint": "threshold"}),
        ("hash", HashingEmbedder(), "percentile 80", {}),
    ]
    table_rows = []
    for name in [n for n in list_documents() if _TABLE_RULE.search(load_document(n).text)]:
        document, row = load_document(name), dict[str, Any]()
        for embedder_name, embedder, rule, options in runs:
            chunker = SemanticChunker(embedder=embedder, unit="line", **options)
            units, line_sims = chunker.similarities(document)
            row[f"{embedder_name}, {rule}: cuts"] = len(chunker.cuts(line_sims))
            row[f"{embedder_name}, {rule}: orphans"] = orphans(chunker.split(document), document)
        is_row = [document.text[a:b].lstrip().startswith("|") for a, b in units]
        gaps = len(units) - 1
        row["gaps between two table rows"] = sum(is_row[i] and is_row[i + 1] for i in range(gaps))
        table_rows.append({"document": name, "gaps": gaps, **row})
    return pd.DataFrame(table_rows).set_index("document")


def hash_ties(names: list[str]) -> dict[str, str]:
    """Per document, the hash's largest line distance and the share of gaps that have it (where
    more gaps share it than percentile 80 leaves above, the rule cuts nothing)."""
    out = {}
    for name in names:
        chunker = SemanticChunker(embedder=HashingEmbedder(), unit="line")
        _, sims = chunker.similarities(load_document(name))
        top = (1 - sims).max()
        out[name] = f"{float((1 - sims == top).mean()):.2f} of gaps at distance {top:.2f}"
    return out
