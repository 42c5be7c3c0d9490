"""Store the MiniLM vectors of notebook 07b's transformer check: data/experiment/embeddings/minilm.*

Embeds, with the live all-MiniLM-L6-v2, the 43 questions of data/experiment.questions.yaml and
every chunk the check ranks (markdown+path, whose chunks small-to-big also searches, the
200-character windows, and the token windows matched to markdown+path, `MATCHED_WINDOW` tokens)
on the series' documents, and notebook 03's sections and 45-token children (`series_groups`),
and stores them keyed by the model's hash and each text's SHA-256
(`chunklab.embeddings.stored`), so the notebook ranks with the model's own vectors in a second
instead of a quarter of a minute. It prints the SHA-256 of both files, for data/SOURCES.md. A text
already in the store keeps its stored vector; `--fresh` embeds all.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/experiment_embeddings.py [--fresh]
"""

from __future__ import annotations

import sys

from chunklab import list_documents, load_document
from chunklab.documents.series import data_dir
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import store_texts
from chunklab.evaluation.experiment import real_strategies
from chunklab.evaluation.questions import load_question_file
from chunklab.teaching.matched_windows import token_windows
from chunklab.teaching.parent_search import series_groups

# the windows 07 matches to markdown+path at k=3 with BM25; 07b section 5 recomputes the match
MATCHED_WINDOW = 70


def main() -> int:
    documents = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", documents)
    texts: dict[str, str] = {}  # text -> where it comes from
    for n, q in enumerate(questions):
        texts.setdefault(q.question, f"questions row {n}")
    cuts = {name: real_strategies()[name] for name in ("markdown+path", "fixed_size")}
    cuts[f"windows {MATCHED_WINDOW} tokens"] = token_windows(MATCHED_WINDOW)
    for label, prepare in cuts.items():
        for name, doc in documents.items():
            for c in prepare(doc).searched:
                texts.setdefault(c.text, f"{label}: {name} {c.start} {c.end}")
    for sections, kids, _, _ in series_groups(45):  # notebook 03's MiniLM line
        for c in [*sections, *kids]:
            texts.setdefault(c.text, f"03's sections and children: {c.chunk_id}")
    stem = data_dir() / "experiment" / "embeddings" / "minilm"
    for line in store_texts(MiniLMEmbedder(), texts, stem, fresh="--fresh" in sys.argv):
        print(line)
    print(f"{len(texts)} texts stored at {stem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
