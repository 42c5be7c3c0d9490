"""The stored MiniLM vectors of notebook 07b's transformer check (scripts/experiment_embeddings.py):
made by this very model, holding every text the check ranks, equal to the live vectors."""

import numpy as np

from chunklab import list_documents, load_document
from chunklab.documents.series import data_dir
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.embeddings.stored import VectorStore, text_key
from chunklab.evaluation.experiment import real_strategies
from chunklab.evaluation.questions import load_question_file
from chunklab.teaching.matched_windows import token_windows


def test_the_stored_vectors_are_the_models_and_hold_every_text_07b_ranks():
    documents = {name: load_document(name) for name in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", documents)
    store = VectorStore.load(data_dir() / "experiment" / "embeddings" / "minilm")
    model = MiniLMEmbedder()
    store.check_model(model)
    cuts = [real_strategies()["markdown+path"], real_strategies()["fixed_size"], token_windows(70)]
    chunks = [c.text for cut in cuts for d in documents.values() for c in cut(d).searched]
    texts = [q.question for q in questions] + chunks
    missing = [t[:40] for t in texts if text_key(t) not in store.row]
    assert not missing, (
        f"{len(missing)} not stored, e.g. {missing[:2]}: scripts/experiment_embeddings.py"
    )
    sample = [questions[0].question, texts[-1]]
    live = model.embed_documents(sample)
    stored = store.vectors[[store.row[text_key(t)] for t in sample]].astype(np.float32)
    assert np.abs(live - stored).max() < 2e-3  # float16 storage, nothing more
