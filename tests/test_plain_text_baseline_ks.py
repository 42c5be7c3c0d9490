"""`Survival.run_ks` ranks each question once, at the largest k, and reads every smaller k from
that ranking (08c's second family, k = 1, costs no second ranking): each k's answers and tokens
must equal a ranking asked at that k alone."""

import yaml

from chunklab import cl100k
from chunklab.documents.series import data_dir
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.plain_text_baseline import Survival, plain


def test_each_k_read_from_one_ranking_equals_a_ranking_at_that_k():
    data = data_dir()
    questions = yaml.safe_load((data / "experiment.questions.yaml").read_text(encoding="utf-8"))
    questions = [q for q in questions["questions"] if q["document"] == "travel_policy"]
    survival = Survival(data, {"travel_policy": "travel_policy"}, questions)
    runs = survival.run_ks("md", (1, 3), 60)
    _, chunks = survival.chunks_of("md", "travel_policy", 60)
    text = {c.chunk_id: c.text for c in chunks}
    for k in (1, 3):
        found, spent, row = runs[k]
        alone = [
            [h.ref_id for h in BM25Retriever().rank(q["question"], chunks, k)] for q in questions
        ]
        assert found == [
            float(any(all(plain(f) in plain(text[r]) for f in q["facts"]) for r in top))
            for q, top in zip(questions, alone, strict=True)
        ]
        assert [spent[q["id"]] for q in questions] == [
            sum(cl100k(text[r]) for r in top) for top in alone
        ]
        assert row["k"] == k
