"""The answer exercises of notebooks 07, 08b, 09 and 09b: each expected answer computed from the
library when asked, and the plausible wrong answers each refusal recognises (a pair in the wrong
order, the right count for the wrong setting, the reverse of what was asked), with why. Kept
apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`. Reading this
file gives the answers away: try first.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from chunklab.chunkers.registry import build
from chunklab.documents.series import data_dir, list_documents, load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.evaluation.article import ARTICLE_STRATEGIES
from chunklab.evaluation.experiment import real_strategies, run_experiment
from chunklab.evaluation.questions import load_question_file, load_questions
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.teaching import answers_split_table as split
from chunklab.teaching.answers import Form
from chunklab.teaching.answers_paired import paired_hint, paired_in_family, paired_misses
from chunklab.tokens.counters import cl100k

KS = (1, 3, 5)  # the depths of notebook 07's `rows`


@lru_cache(maxsize=None)  # a refusal asks for several strategies' rows; each is computed once
def _experiment_rows(strategy: str, retriever: str, ks: tuple[int, ...] = (1,)):
    docs = {n: load_document(n) for n in list_documents()}
    questions = load_question_file(data_dir() / "experiment.questions.yaml", docs)
    strategies = {strategy: real_strategies()[strategy]}
    return run_experiment(docs, questions, strategies, {retriever: RETRIEVERS[retriever]()}, ks=ks)


def _fixed_unanswerable() -> list[str]:
    return sorted(
        r["question"] for r in _experiment_rows("fixed_size", "overlap") if not r["answerable"]
    )


def _fixed_unanswerable_misses() -> dict[Any, str]:
    stub = _experiment_rows("fixed_size", "overlap")
    misses = {
        tuple(sorted(r["question"] for r in stub if not r["complete"])): "those are the questions "
        "no top-1 chunk completes; `answerable` asks whether any chunk of the cut holds every "
        "fact, whatever the ranking",
    }
    for other in ("structural", "structural+", "linearized"):  # the article's other cuts
        misses[tuple(unanswerable(other))] = (
            f"that is {other}'s list; the exercise asks about fixed_size"
        )
    misses.setdefault(  # the cut notebook 07 leads with: the wrong cut, not a missing id
        tuple(unanswerable("markdown")),
        "that is markdown's list; the exercise asks about fixed_size",
    )
    misses[tuple(article_fixed_unanswerable())] = (
        "those are the article's ten questions (load_questions('manual')); the exercise asks "
        "about the 43 questions of the real version, in `rows`"
    )
    for k, short in fixed_not_complete().items():  # built on `complete` 0 with BM25, one k
        coincide = short == fixed_short_of_facts()[k]
        same = " (here the same ids as `fact_recall` below 1)" if coincide else ""
        misses.setdefault(
            short,
            f"those are the questions no top-{k} chunk completes with BM25 (`complete` 0 at "
            f"k={k}){same}: `complete` asks the top k; `answerable` asks whether any chunk of "
            "the cut holds every fact, whatever is retrieved",
        )
    for k, short in fixed_short_of_facts().items():  # built on `fact_recall` < 1, one k
        misses.setdefault(
            short,
            f"those are the questions whose top {k} misses a fact (`fact_recall` below 1 at "
            f"k={k}): `fact_recall` is about what was retrieved; `answerable` asks whether any "
            "chunk of the cut holds every fact, whatever is retrieved",
        )
    right = _fixed_unanswerable()
    misses[tuple(reversed(right))] = (
        "the right ids in reverse order: sorted(ids) puts them in ascending order"
    )
    misses.pop(tuple(right), None)
    return misses


def article_fixed_unanswerable() -> list[str]:
    """The same question asked of the article's ten questions and its 200-character windows."""
    chunks = ARTICLE_STRATEGIES["fixed_size"](load_document("manual"))
    texts = [c.text.lower() for c in chunks]
    return sorted(
        q.id
        for q in load_questions("manual").questions
        if not any(all(f.lower() in t for f in q.facts) for t in texts)
    )


def unanswerable(strategy: str) -> list[str]:
    """The ids no chunk of `strategy` can answer (`answerable` does not depend on the ranking)."""
    return sorted(
        r["question"] for r in _experiment_rows(strategy, "overlap") if not r["answerable"]
    )


# the GDS Way page on sensitive code: its longest windows near the limit run 254, 255 and 258
# positions at 206, 207 and 208 tokens, so the [CLS]/[SEP] slips give answers of their own
WINDOW_PAGE = "sensitive_code"


@lru_cache(maxsize=None)  # the answer and its refusals sweep the same sizes
def _longest_window(size: int, overlap: int | None = 0) -> int:
    """The positions, [CLS] and [SEP] included, of the page's longest window at `size`."""
    doc, minilm = load_document(WINDOW_PAGE), MiniLMEmbedder()
    options = {} if overlap is None else {"overlap": overlap}
    chunker = build("fixed", size=size, unit="tokens", **options)
    return max(len(minilm.encoding(c.text).ids) for c in chunker.split(doc))


@lru_cache(maxsize=None)
def _largest_window_read_whole(overlap: int | None = 0, limit: int = 256) -> int:
    """09.2: the largest fixed window, in cl100k tokens, at which MiniLM cuts none of the
    sensitive-code page's windows (`overlap=None`: build's default overlap, a slip; `limit`: the
    positions allowed, 256 with [CLS] and [SEP], another number a slip about the markers)."""
    return max(size for size in range(150, 300) if _longest_window(size, overlap) <= limit)


def _first_stop() -> int:
    """The size a search that grows the window until one is cut stops at: the size before the
    first that cuts one. On this page larger sizes cut none again (a slip, not the answer)."""
    return next(size for size in range(150, 300) if _longest_window(size) > 256) - 1


def _largest_window_misses() -> dict[Any, str]:
    right = _largest_window_read_whole()
    pieces = (
        "that is MiniLM's limit in word pieces{}; the windows count cl100k tokens, "
        "and this page has more word pieces than cl100k tokens"
    )
    misses: dict[Any, str] = {
        right + 1: "at that size a window is already cut; the answer is the largest size with "
        "none cut",
        right - 1: "no window is cut there either; the answer is the largest such size",
    }
    # the markers forgotten (256 pieces of text allowed) or counted twice (254 positions allowed)
    misses[_largest_window_read_whole(limit=258)] = (
        "at that size the longest window is 256 word pieces of text or fewer, but with [CLS] and "
        "[SEP] it runs past the 256 positions the model reads: count the two markers"
    )
    misses[_largest_window_read_whole(limit=254)] = (
        "no window is cut there, but it is not the largest such size: [CLS] and [SEP] are 2 "
        "of the 256 positions, so a window may hold 254 pieces of text; count the markers once, "
        "not twice"
    )
    misses |= {
        # section 4's table: its 200 column cuts one chunk, so 199 read off it, not off this page
        199: "that is from section 4's table, with overlap and every document; cut only this "
        "page, overlap=0",
        # the round guess: section 4's table has no column between 200 and 256
        200: "section 4's 200 column cuts one chunk over every document, not this page's; "
        "cut this page alone at every size and count",
        254: pieces.format(" of text"),
        256: pieces.format(", [CLS] and [SEP] included"),
    }
    misses.setdefault(
        _largest_window_read_whole(None),
        "that is with build's default overlap; the exercise asks overlap=0",
    )
    doc = load_document(WINDOW_PAGE)
    ratio = (len(MiniLMEmbedder().encoding(doc.text).ids) - 2) / cl100k(doc.text)
    average = (
        "MiniLM's limit divided by the page's average ratio of word pieces to cl100k tokens; a "
        "window's own ratio can be higher than the page's, so cut the page at each size and count"
    )
    # the average-ratio slip, rounded either way, with the ratio as computed or as printed (1.12)
    for limit in (254, 256):
        for ratio_used in (ratio, round(ratio, 2)):
            misses.setdefault(int(limit / ratio_used), average)
            misses.setdefault(round(limit / ratio_used), average)
    misses.setdefault(
        _first_stop(),
        "no window is cut there, and one is cut a size up, but larger sizes cut none again: "
        "a window's own ratio of pieces to tokens moves as the cuts move, so a size that cuts "
        "none can sit above one that cuts some; test every size, do not stop at the first cut",
    )
    misses.pop(right, None)
    return misses


# exercise -> what a right answer is told besides "correct": the prompt's own question, answered
AFTERWORDS_EXPERIMENTS: dict[str, Callable] = {"08b.2": split.afterword}


SOLUTIONS_EXPERIMENTS: dict[str, tuple[str, Callable[[], Any]]] = {
    "07.2": ("a list of question ids in ascending order", _fixed_unanswerable),
    "07.3": ("a tuple (won, lost, low, verdict)", paired_in_family),
    "09.2": ("an integer, a size in cl100k tokens", _largest_window_read_whole),
    "08b.2": ("an integer, a budget in cl100k tokens", split.word_table_whole),
}

FORMS_EXPERIMENTS: dict[str, Form] = {
    # ordered: the prompt asks for the sorted list, so a reversed one is refused, and told why
    "07.2": Form(ordered=True, misses=_fixed_unanswerable_misses),
    "07.3": Form(decimals=1, misses=paired_misses),
    "09.2": Form(misses=_largest_window_misses),
    "08b.2": Form(misses=split.split_table_misses),
}


def _unanswerable_hint(answer: Any, solution: Any) -> str:
    """07.2: what a list built from `rows` goes wrong on, without giving away its length."""
    if not isinstance(answer, (list, tuple)):
        return ""
    if any(isinstance(item, str) and item != item.lower() for item in answer):
        return (
            "question ids are lower-case, as in `rows` ('m03', not 'M03'): do not change their case"
        )
    if not answer:
        return (
            "an empty list: some questions no fixed_size chunk can answer; build the list from "
            "the chunks (or the `answerable` column of `rows`)"
        )
    if len(set(answer)) < len(answer):
        return (
            "an id appears more than once: each question has one row per retriever and k in "
            "`rows`, so keep each id once"
        )
    given, right = set(answer), set(solution)
    if given > right and given - right <= unanswerable_by_other_strategies():
        return (
            "some of those are unanswerable for another strategy, not for fixed_size: keep only "
            "the rows where strategy == 'fixed_size' before you collect the ids"
        )
    if given > right:
        return (
            "some of those are answerable, only not complete at some k (or with `fact_recall` "
            "below 1 there): `answerable` asks whether "
            "any chunk of the cut holds every fact, whatever the retriever and k; `complete` asks "
            "the top k"
        )
    if given < right:
        return (
            "every id you give is right, but an id is missing: a question belongs in the list "
            "when its fixed_size rows have `answerable` 0, whichever retriever and k the row is for"
        )
    if given - right and given - right <= fixed_unreached():
        return (
            "those look like the questions the search did not reach (`reached` 0): `reached` is "
            "about ranking, whether the top k got to the evidence; `answerable` is about the cut, "
            "whether any chunk holds every fact, whatever is ranked"
        )
    if given - right:
        wrong = len(given - right)
        return (
            f"{wrong} of your ids {'is' if wrong == 1 else 'are'} answerable: some fixed_size "
            "chunk holds every fact of that question"
        )
    return ""


@lru_cache(maxsize=1)
def fixed_unreached() -> frozenset[str]:
    """The ids some fixed_size row of `rows` does not reach, with the stub or BM25 at any k: what a
    list built on `reached` instead of `answerable` collects."""
    found = [r for name in ("overlap", "bm25") for r in _experiment_rows("fixed_size", name, KS)]
    return frozenset(r["question"] for r in found if not r["reached"])


@lru_cache(maxsize=1)
def fixed_not_complete() -> dict[int, tuple[str, ...]]:
    """For each k, the sorted ids whose fixed_size row with BM25 has `complete` 0: what a list
    built on the ranking instead of `answerable` collects."""
    found = _experiment_rows("fixed_size", "bm25", KS)
    return {
        k: tuple(sorted(r["question"] for r in found if r["k"] == k and not r["complete"]))
        for k in KS
    }


@lru_cache(maxsize=1)
def fixed_short_of_facts() -> dict[int, tuple[str, ...]]:
    """For each k, the sorted ids whose fixed_size row with BM25 has `fact_recall` below 1: what a
    list built on the retrieved facts instead of `answerable` collects."""
    found = _experiment_rows("fixed_size", "bm25", KS)
    return {
        k: tuple(sorted(r["question"] for r in found if r["k"] == k and r["fact_recall"] < 1))
        for k in KS
    }


def unanswerable_by_other_strategies() -> set[str]:
    """The ids some other strategy cannot answer: what a list collected over `rows` without
    filtering the strategy adds to fixed_size's."""
    return {q for name in real_strategies() if name != "fixed_size" for q in unanswerable(name)}


HINTS_EXPERIMENTS: dict[str, Callable[[Any, Any], str]] = {
    "07.2": _unanswerable_hint,
    "07.3": paired_hint,
}
