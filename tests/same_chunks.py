"""Fingerprints of every strategy's chunks on every document in `data/`: the guard for refactors.

`python tests/same_chunks.py --write` stores them in `tests/fixtures/chunk_hashes.json`;
`tests/test_same_chunks.py` recomputes them and fails on any byte that moved. They were first
written before the library was moved into folders (issue 30), so the layout change is proved to
change no chunk; a change that is *meant* to move chunks rewrites the file and says so in its
commit.

Covered: each strategy the CLI offers, with its default options, on every document `data/` holds
in any format the library reads (Markdown, HTML, Word, PDF), and every strategy of the experiment
(`real_strategies`: what is searched and what is handed to the model), on the same documents.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "chunk_hashes.json"
UNREADABLE = {"encrypted.pdf", "scanned.pdf"}  # refused by name: tested in test_convert


def documents():
    from chunklab import read_document

    # `data/*.md`, not a recursive glob: data/chroma/ (Chroma's benchmark corpora, 1.4 MB) is left
    # out on purpose; its bytes are guarded by their SHA-256 (tests/test_chroma_data.py), and
    # chunking them with every strategy here would take minutes and guard nothing more.
    paths = sorted(ROOT.glob("data/*.md")) + sorted(
        p for p in (ROOT / "data" / "formats").iterdir() if p.name not in UNREADABLE
    )
    return {p.relative_to(ROOT / "data").as_posix(): read_document(p) for p in paths}


def digest(chunks) -> str:
    records = [c.model_dump(mode="json") for c in chunks]
    return hashlib.sha256(
        json.dumps(records, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()[:20]


def strategies():
    """Name -> function(document) -> list of chunks (the experiment's: searched, then handed)."""
    from chunklab.chunkers.registry import STRATEGIES
    from chunklab.evaluation.experiment import real_strategies

    out = {}
    for name, strategy in STRATEGIES.items():  # "cli:": what `chunklab chunk --strategy NAME` gives
        out[f"cli:{name}"] = strategy.build().split
    for name, prepare in real_strategies().items():

        def both(doc, prepare=prepare):
            prepared = prepare(doc)
            return [*prepared.searched, *(prepared.handed[c.chunk_id] for c in prepared.searched)]

        out[f"experiment:{name}"] = both
    return out


def all_hashes() -> dict[str, dict[str, str]]:
    docs = documents()
    return {
        name: {d: digest(split(doc)) for d, doc in docs.items()}
        for name, split in strategies().items()
    }


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/same_chunks.py --write")
    FIXTURE.write_text(json.dumps(all_hashes(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {FIXTURE.relative_to(ROOT)}")
