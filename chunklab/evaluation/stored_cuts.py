"""The spans of notebook 10d's MarkdownChunker cuts of Chroma's benchmark (and of the report's
splitter at the caps around Recursive 175/0, `CAP_SWEEP`, located as the report locates them),
stored, so the notebook
reads them in milliseconds instead of counting MiniLM word pieces over 1.4 million characters again
(about ten seconds of CPU, a third of the notebook's time budget).

Why it is safe: `make embeddings` (scripts/chroma_embeddings.py) writes them with the same
`row_cut` the notebook would run; each corpus's spans are keyed by a hash of the row's options and
the corpus text, so an edited corpus or row is refused (`StaleCut`), never served; and
`tests/test_stored_cuts.py` cuts again and compares, so a chunker change that moves the spans fails
there until they are stored again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

from chunklab.evaluation.benchmark import Cut
from chunklab.evaluation.benchmark_rows import CAP_SWEEP, ROWS, row_cut, store_stem
from chunklab.evaluation.chroma import locate_all

CUT_ROWS = ("markdown 200", "markdown 150", *CAP_SWEEP)  # the cuts slow enough to store


class StaleCut(ValueError):
    """No stored spans for this row and text: the corpus, the row or the file changed."""


def cuts_path() -> Path:
    """`data/chroma/embeddings/cuts.json`, beside the vectors it was stored with."""
    return store_stem().with_name("cuts.json")


def cut_key(label: str, text: str) -> str:
    """The row's options and the corpus text, hashed: what a stored cut must match."""
    options = json.dumps(ROWS.get(label) or CAP_SWEEP[label], sort_keys=True)
    return hashlib.sha256(f"{options}\n{text}".encode()).hexdigest()[:24]


def record_cuts(
    corpora: Mapping[str, str], labels: Iterable[str] = CUT_ROWS, path: Path | None = None
) -> Path:
    """Cut every corpus with each row and store the spans (run by `make embeddings`)."""
    stored = {
        label: {
            cut_key(label, text): spans(row_cut(label)(text), text) for text in corpora.values()
        }
        for label in labels
    }
    path = path or cuts_path()
    path.write_text(json.dumps(stored, separators=(",", ":")) + "\n", encoding="utf-8")
    return path


def spans(pieces: Iterable, text: str) -> list[list[int]]:
    """A cut's (start, end) spans: as given, or each chunk text located as the report does."""
    pieces = list(pieces)
    if pieces and isinstance(pieces[0], str):
        return [[c.start, c.end] for c in locate_all("", text, pieces)]
    return [list(span) for span in pieces]


def stored_cut(label: str, path: Path | None = None) -> Cut:
    """The row's cut read from the stored spans; a text not stored raises `StaleCut`."""
    path = path or cuts_path()
    if not path.is_file():
        raise StaleCut(f"{path.name}: no stored cuts; run make embeddings")
    spans = json.loads(path.read_text(encoding="utf-8")).get(label, {})

    def cut(text: str) -> list[tuple[int, int]]:
        key = cut_key(label, text)
        if key not in spans:
            raise StaleCut(f"{path.name}: no stored {label} cut of this text; run make embeddings")
        return [(a, b) for a, b in spans[key]]

    return cut
