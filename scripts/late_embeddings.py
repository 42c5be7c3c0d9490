"""Store the MiniLM vectors of 09b's baseline (09c reads them too): data/late/embeddings/minilm.*

Companion 09b compares late chunking with each chunk embedded alone. The late side reads every
document live; the baseline's vectors, every chunk embedded alone, are the same for every run, so
they are stored: every chunk text of 09b's two cuts (fixed windows of 40 cl100k tokens, Markdown
sections of 256 MiniLM word pieces) and the Markdown sections' own spans without their
breadcrumb, on the documents its questions ask about. Keyed by the model's hash and each text's
SHA-256 (`chunklab.embeddings.stored`): a text not in the store is embedded live, so a store
that falls behind a chunker costs time, never a wrong vector. It prints the SHA-256 of both
files, for data/SOURCES.md.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/late_embeddings.py [--fresh]
"""

from __future__ import annotations

import sys

from chunklab import list_documents, load_document
from chunklab.chunkers.registry import build
from chunklab.documents.series import data_dir
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import store_texts
from chunklab.evaluation.questions import load_question_file


def main() -> int:
    documents = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", documents)
    asked = sorted({q.document for q in questions})
    cuts = {
        "fixed 40": build("fixed", size=40, overlap=0, unit="tokens"),
        "markdown, 256 pieces": build("markdown", max_tokens=256, counter="minilm"),
    }
    texts: dict[str, str] = {}  # text -> where it comes from
    for label, chunker in cuts.items():
        for name in asked:
            doc = documents[name]
            for c in chunker.split(doc):
                texts.setdefault(c.text, f"{label}: {name} {c.start} {c.end}")
                texts.setdefault(doc.text[c.start : c.end], f"{name} {c.start} {c.end}")
    stem = data_dir() / "late" / "embeddings" / "minilm"
    for line in store_texts(MiniLMEmbedder(), texts, stem, fresh="--fresh" in sys.argv):
        print(line)
    print(f"{len(texts)} texts stored at {stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
