"""The series' own documents by name: `data/catalog.json`, loaded without a path.

The documents in `data/` are listed in `data/catalog.json`. An installed wheel carries them as
`chunklab.series_data`; a checkout reads `data/` itself; `$CHUNKLAB_DATA` points anywhere else.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from chunklab.contracts import Document
from chunklab.documents.files import DocumentError

DATA_ENV = "CHUNKLAB_DATA"
PACKAGE_ROOT = Path(__file__).resolve().parents[1]  # the chunklab package folder


def data_dir() -> Path:
    """The series' data folder: `$CHUNKLAB_DATA` if set; else the copy an installed wheel carries
    (`chunklab.series_data`); else the `data/` folder of this checkout."""
    if os.environ.get(DATA_ENV):
        folder = Path(os.environ[DATA_ENV])
    else:
        candidates = [PACKAGE_ROOT / "series_data", PACKAGE_ROOT.parent / "data"]
        folder = next((c for c in candidates if (c / "catalog.json").is_file()), candidates[-1])
    if not (folder / "catalog.json").is_file():
        raise DocumentError(
            f"{folder}: no catalog.json, so the series' documents cannot be found; "
            f"run from a checkout of chunklab, or set {DATA_ENV} to its data/ folder"
        )
    return folder


def _catalog() -> dict[str, dict[str, Any]]:
    return json.loads((data_dir() / "catalog.json").read_text(encoding="utf-8"))


def list_documents() -> list[str]:
    """Names accepted by `load_document`, in catalogue order."""
    return list(_catalog())


def load_document(name: str) -> Document:
    """One of the series' documents, e.g. `load_document("manual")`."""
    catalog = _catalog()
    if name not in catalog:
        raise KeyError(f"unknown document {name!r} (known: {', '.join(catalog)})")
    entry = catalog[name]
    text = (data_dir() / entry["file"]).read_text(encoding="utf-8")
    metadata = {"language": entry["language"], **entry.get("metadata", {})}
    return Document(
        doc_id=name, uri=f"data/{entry['file']}", title=entry["title"], text=text, metadata=metadata
    )


def load_topic_boundaries(name: str) -> list[int]:
    """Character offsets where each topic of a prose document starts (the first is 0).

    Read from `NAME.boundaries.json`; a boundary whose words are not found exactly once is an error.
    """
    path = data_dir() / f"{name}.boundaries.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    text = load_document(spec["document"]).text
    offsets = []
    for topic in spec["topics"]:
        needle = topic["starts_with"]
        if text.count(needle) != 1:
            raise ValueError(
                f"{path.name}: topic {topic['topic']!r}: {needle!r} must occur "
                "exactly once in the text"
            )
        offsets.append(text.index(needle))
    if offsets != sorted(offsets):
        raise ValueError(f"{path.name}: topics are not in document order")
    return offsets
