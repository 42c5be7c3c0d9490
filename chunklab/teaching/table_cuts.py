"""Companion 04d's section 2: what each breakpoint rule does to the series' pipe tables, with
line units. Per document with a table: the cuts and the orphans (rows cut off from their header)
under WordLlama at the article's 0.6 threshold and at percentile 80, under MiniLM at 0.6 (the
threshold on another model's scale), and under the hash at percentile 80 (a model that knows no
meaning), and the gaps between two table rows, from which the notebook computes the skeptic's
floor: the chance that as many random cuts as WordLlama's percentile 80 leave them all uncut. Two
controls: the orphans as WordLlama's percentile is swept (the number of cuts, not the rule), and
the orphans at percentile 80's number of cuts under a bag-of-words hash with its ties broken."""

from __future__ import annotations

import re
from typing import Any

from chunklab.chunkers.semantic import SemanticChunker
from chunklab.chunkers.tables import orphans
from chunklab.contracts import span_chunks
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


def orphans_by_percentile(names: list[str], percentiles: list[int]) -> tuple[Any, Any]:
    """Per WordLlama percentile (rows) and document (columns), line units, the default budget: the
    cuts the rule makes, and the orphans. The number of cuts swept: the control on whether a count,
    not the breakpoint rule, decides what happens to a table."""
    import pandas as pd

    wordllama = EmbedOnce(WordLlamaEmbedder())
    made: dict[str, dict[int, int]] = {name: {} for name in names}
    lost: dict[str, dict[int, int]] = {name: {} for name in names}
    for name in names:
        document = load_document(name)
        for percentile in percentiles:
            chunker = SemanticChunker(embedder=wordllama, unit="line", percentile=percentile)
            _, line_sims = chunker.similarities(document)
            made[name][percentile] = len(chunker.cuts(line_sims))
            lost[name][percentile] = orphans(chunker.split(document), document)
    return pd.DataFrame(made), pd.DataFrame(lost)


def _orphans_at(document: Any, units: list[tuple[int, int]], gaps: Any) -> int:
    """The orphans when the text is cut at these gaps between units and nowhere else (no budget)."""
    bounds = [units[0][0], *(units[g + 1][0] for g in sorted(gaps)), len(document.text)]
    spans = [(a, b, 0) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
    return orphans(span_chunks(document, spans, "cut at gaps"), document)


def tables_kept_at_count(names: list[str], runs: int = 200, seed: int = 0) -> Any:
    """Per document, at WordLlama percentile 80's number of cuts k (the rule's, no budget): the
    share of runs that orphan no row when cutting the k least similar gaps by WordLlama, by a
    bag-of-words hash (1024 buckets, so that two words seldom share one; its many tied gaps put
    in a random order each run), and at k gaps drawn at random."""
    import numpy as np
    import pandas as pd

    rng, wordllama, rows = np.random.default_rng(seed), WordLlamaEmbedder(), {}
    for name in names:
        document = load_document(name)
        units, line_sims = SemanticChunker(embedder=wordllama, unit="line").similarities(document)
        k = len(SemanticChunker(embedder=wordllama, unit="line").cuts(line_sims))
        _, hash_sims = SemanticChunker(
            embedder=HashingEmbedder(dim=1024), unit="line"
        ).similarities(document)
        kept = {
            "k": k,
            "WordLlama": float(
                _orphans_at(document, units, np.argsort(line_sims, kind="stable")[:k]) == 0
            ),
        }
        lowest = [np.lexsort((rng.random(len(hash_sims)), hash_sims))[:k] for _ in range(runs)]
        kept["hash, ties in random order"] = float(
            np.mean([_orphans_at(document, units, g) == 0 for g in lowest])
        )
        drawn = [rng.choice(len(line_sims), k, replace=False) for _ in range(runs)]
        kept["random k gaps"] = float(
            np.mean([_orphans_at(document, units, g) == 0 for g in drawn])
        )
        rows[name] = kept
    table = pd.DataFrame(rows).T.rename_axis("share of runs with no orphan")
    return table.astype({"k": int})
