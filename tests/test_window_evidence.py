"""The bookkeeping companion 03b calls: its table of five ways on notebook 03's four questions
(window_evidence)."""

from chunklab import load_document, load_questions
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.retrieval.sentence_window import sentence_windows
from chunklab.teaching.window_evidence import four_question_tables
from chunklab.tokens.counters import approx_tokens


def test_four_question_tables_hold_five_ways_and_sections_alone_per_question():
    policy, questions = load_document("travel_policy"), load_questions("travel_policy")
    chunker = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens)
    recall, tokens, per_question = four_question_tables(
        policy, questions, chunker, sentence_windows(policy), {"BM25": BM25Retriever()}, ks=[1]
    )
    assert set(recall.columns) == {
        "children only",
        "small-to-big",
        "sentence window",
        "sections alone",
        "merged windows",
    }
    assert len(per_question["BM25", "sections alone", 1]) == len(questions.questions)
    assert (tokens["merged windows"] <= tokens["sentence window"]).all()
