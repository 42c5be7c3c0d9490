"""The answer exercises of notebooks 07, 07b, 08 and 09: each expected answer computed from the
library when asked, and the plausible wrong answers each refusal recognises (a pair in the wrong
order, the right count for the wrong setting, the reverse of what was asked), with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.registry import build
from chunklab.chunkers.tables import orphans
from chunklab.documents.reading import read_document
from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.evaluation.experiment import real_strategies, run_experiment
from chunklab.evaluation.questions import load_question_file
from chunklab.retrieval.retrievers import RETRIEVERS, BM25Retriever
from chunklab.teaching.answers import Form


def _experiment_rows(strategy: str, retriever: str):

    docs = {n: load_document(n) for n in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    strategies = {strategy: real_strategies()[strategy]}
    return run_experiment(
        docs, questions, strategies, {retriever: RETRIEVERS[retriever]()}, ks=(1,)
    )


def _fixed_unanswerable() -> list[str]:
    return sorted(
        r["question"] for r in _experiment_rows("fixed_size", "overlap") if not r["answerable"]
    )


def _linearized_complete_without_reaching() -> list[str]:
    docs = {n: load_document(n) for n in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    strategies = {"markdown-lin": real_strategies()["markdown-lin"]}
    rows = run_experiment(docs, questions, strategies, {"bm25": BM25Retriever()}, ks=(3,))
    return sorted(r["question"] for r in rows if r["complete"] and not r["reached"])


def _fixed_unanswerable_misses() -> dict[Any, str]:
    stub = _experiment_rows("fixed_size", "overlap")
    misses = {
        tuple(sorted(r["question"] for r in stub if not r["complete"])): "those are the questions "
        "no top-1 chunk completes; `answerable` asks whether any chunk of the cut holds every "
        "fact, whatever the ranking",
        tuple(_unanswerable("structural")): "that is the structural cut's list; the exercise asks "
        "about fixed_size",
    }
    misses.pop(tuple(_fixed_unanswerable()), None)
    return misses


def _unanswerable(strategy: str) -> list[str]:
    return sorted(
        r["question"] for r in _experiment_rows(strategy, "overlap") if not r["answerable"]
    )


def _linearized_misses() -> dict[Any, str]:
    docs = {n: load_document(n) for n in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    strategies = {"markdown-lin": real_strategies()["markdown-lin"]}
    rows = run_experiment(docs, questions, strategies, {"bm25": BM25Retriever()}, ks=(3,))
    misses = {
        ("lodging-nyc",): "that is the example file's question from section 6; the exercise asks "
        "about the 43 questions of data/experiment.questions.yaml",
        tuple(sorted(r["question"] for r in rows if r["reached"] and not r["complete"])): "those "
        "are reached but not complete: the exercise asks the reverse",
    }
    misses.pop(tuple(_linearized_complete_without_reaching()), None)
    return misses


def pdf_chunks_and_orphans(max_tokens: int, path: str) -> tuple[int, int]:
    doc = read_document(data_dir() / path)
    chunks = MarkdownChunker(max_tokens=max_tokens).split(doc)
    return len(chunks), orphans(chunks, doc)


def _pdf_misses() -> dict[Any, str]:
    chunks, orphan_count = _pdf_chunks_and_orphans_at_60()
    misses = {
        (orphan_count, chunks): "the pair is (chunks, orphans), in that order",
        pdf_chunks_and_orphans(200, "formats/travel_policy.pdf"): "that is the cut at 200 tokens "
        "(section 3's chunker); the exercise asks max_tokens=60",
        pdf_chunks_and_orphans(60, "travel_policy.md"): "that is the Markdown's cut; the exercise "
        "asks the PDF's (data/formats/travel_policy.pdf)",
        pdf_chunks_and_orphans(60, "formats/travel_policy_unruled.pdf"): "that is the PDF "
        "printed without rules (section 4's); the exercise asks data/formats/travel_policy.pdf",
    }
    misses.pop((chunks, orphan_count), None)
    return misses


def _schedule_misses() -> dict[Any, str]:
    cut, words = _schedule_windows_cut_by_minilm()
    doc = load_document("work_schedules")
    texts = [c.text for c in build("fixed", size=300, overlap=0, unit="tokens").split(doc)]
    report = MiniLMEmbedder().cut(texts)
    misses: dict[Any, str] = {}
    for chunker in (  # build's default overlap, and two a learner might type
        build("fixed", size=300, unit="tokens"),
        *(build("fixed", size=300, overlap=n, unit="tokens") for n in (30, 60)),
    ):
        with_overlap = MiniLMEmbedder().cut([c.text for c in chunker.split(doc)])
        misses[(with_overlap.truncated, with_overlap.words_dropped)] = (
            "that is with overlapping windows (build's default overlap is not 0); "
            "the exercise asks overlap=0"
        )
    misses |= {
        (words, cut): "the pair is (chunks cut, words never read), in that order",
        (cut, report.pieces_dropped): "that counts word pieces never read; the exercise asks words",
        (0, 0): "nothing cut: windows of 300 characters (build's default unit) or an embedder "
        'reading 512 pieces cut nothing; the exercise asks 300 cl100k tokens (unit="tokens") '
        "and MiniLM's default limit of 256",
    }
    misses.pop((cut, words), None)
    return misses


def _pdf_chunks_and_orphans_at_60() -> tuple[int, int]:

    doc = read_document(data_dir() / "formats" / "travel_policy.pdf")
    chunks = MarkdownChunker(max_tokens=60).split(doc)
    return len(chunks), orphans(chunks, doc)


def _schedule_windows_cut_by_minilm() -> tuple[int, int]:
    texts = [
        c.text
        for c in build("fixed", size=300, overlap=0, unit="tokens").split(
            load_document("work_schedules")
        )
    ]
    cut = MiniLMEmbedder().cut(texts)
    return cut.truncated, cut.words_dropped


SOLUTIONS_0709: dict[str, tuple[str, Callable[[], Any]]] = {
    "07.2": ("a sorted list of question ids", _fixed_unanswerable),
    "07b.2": ("a sorted list of question ids", _linearized_complete_without_reaching),
    "08.2": ("a pair (chunks, orphans)", _pdf_chunks_and_orphans_at_60),
    "09.3": ("a pair (chunks cut, words never read)", _schedule_windows_cut_by_minilm),
}

FORMS_0709: dict[str, Form] = {
    "07.2": Form(misses=_fixed_unanswerable_misses),
    "07b.2": Form(misses=_linearized_misses),
    "08.2": Form(misses=_pdf_misses),
    "09.3": Form(misses=_schedule_misses),
}
