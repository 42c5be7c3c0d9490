"""04c's sweep counts, per percentile, the cuts two models share and each model's cuts on a true
change; 04's comparison with the blank lines names the true starts gained and lost."""

import numpy as np

from chunklab.teaching.cut_agreement import agreement_sweep


def test_the_sweep_counts_shared_cuts_and_cuts_on_true_changes():
    same = np.array([0.9, 0.1, 0.8, 0.2, 0.7])  # least similar: gaps 1 and 3
    flipped = np.array([0.1, 0.9, 0.2, 0.8, 0.7])  # least similar: gaps 0 and 2
    sweep = agreement_sweep({"wordllama": same, "minilm": same, "hash": flipped}, {1})
    row = sweep.loc[60]  # percentile 60 of five distances: two gaps cut
    assert row["WordLlama cuts"] == 2
    assert row["shared with MiniLM"] == 2 and row["shared with the hash"] == 0
    assert row["on a true change: WordLlama"] == 1 and row["hash"] == 0
    assert list(sweep.index) == list(range(1, 100))


def test_against_blank_lines_on_the_topics_document():
    import re

    from chunklab.chunkers.semantic import SemanticChunker
    from chunklab.contracts import span_chunks
    from chunklab.documents.series import load_document, load_topic_boundaries
    from chunklab.embeddings.static import WordLlamaEmbedder
    from chunklab.teaching.headless_pages import against_blank_lines
    from chunklab.tokens.counters import cl100k

    topics, truth = load_document("topics"), load_topic_boundaries("topics")
    spans = [m.span() for m in re.finditer(r"[^\n]+(?:\n[^\n]+)*", topics.text)]
    blank = span_chunks(topics, [(a, b, cl100k(topics.text[a:b])) for a, b in spans], "paragraphs")
    vs = against_blank_lines(SemanticChunker(embedder=WordLlamaEmbedder()), topics, blank, truth)
    assert vs["unmarked"] == vs["gained"] == vs["as many: gained"]
    assert vs["as many: scores"]["cuts"] == len(blank) - 1
