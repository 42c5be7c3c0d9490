"""The answer exercises of notebooks 03, 03b, 03c and 03d (small-to-big, sentence windows, filters
and ranking, long parents): each expected answer computed from the library when asked, and the
plausible wrong answers each refusal recognises, with why.

Kept apart from `teaching.selfcheck`, which registers them in its `SOLUTIONS` and `FORMS`.
Reading this file gives the answers away: try first.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.documents.series import load_document
from chunklab.evaluation.questions import load_questions
from chunklab.evaluation.recall import fact_recall
from chunklab.retrieval.retrievers import RETRIEVERS
from chunklab.retrieval.sentence_window import sentence_spans, sentence_windows
from chunklab.teaching.answers import Form
from chunklab.tokens.counters import approx_tokens, cl100k

COUNTERS = {"cl100k": cl100k, "approx": approx_tokens}


@functools.cache
def _t03_hit():
    """03b.1's setting: the policy, question t03, its sentence spans and the index of the
    sentence BM25 ranks first for t03 (k = 1), shared by the right window and each slip."""
    doc, questions = load_document("travel_policy"), load_questions("travel_policy")
    t03 = next(q for q in questions.questions if q.id == "t03")
    sentences = sentence_windows(doc).children
    (hit,) = RETRIEVERS["bm25"]().rank(t03.question, sentences, 1)
    i = [c.chunk_id for c in sentences].index(hit.ref_id)
    return doc, t03, sentence_spans(doc.text), i


@functools.cache
def _t03_window(before: int, after: int, counter: str = "cl100k") -> tuple[float, int]:
    """t03's best BM25 sentence (k = 1) with `before` sentences ahead of it and `after` past it,
    the window an exact slice of the policy: (its fact recall on t03, its tokens) (03b.1)."""
    doc, t03, spans, i = _t03_hit()
    text = doc.text[spans[max(0, i - before)][0] : spans[min(len(spans) - 1, i + after)][1]]
    count = {"characters": len, "words": lambda t: len(t.split())}.get(counter) or COUNTERS[counter]
    return fact_recall(text, t03.facts), count(text)


def _t03_space_joined(after: int) -> int:
    """03b.1's other slip: t03's hit and `after` sentences past it joined with spaces, as
    LlamaIndex joins its window, instead of the slice of the policy: its cl100k tokens."""
    doc, _, spans, i = _t03_hit()
    return COUNTERS["cl100k"](" ".join(doc.text[a:b] for a, b in spans[i : i + after + 1]))


def _fewest_after() -> int:
    """The fewest sentences after t03's hit, none before, whose window holds all of t03's facts."""
    spans = _t03_hit()[2]
    return next(a for a in range(len(spans)) if _t03_window(0, a)[0] == 1.0)


def _forward_window_tokens() -> int:
    return _t03_window(0, _fewest_after())[1]


def _three_before_hints(hints: dict[Any, str], a: int) -> None:
    """03b.1's slips that keep window()'s default of 3 sentences before the hit."""
    hints[_t03_window(3, 3)[1]] = (
        "that is the notebook's window, 3 sentences each side, which holds 2 of the 3 facts; "
        "the question asks none before and as few after as hold all three"
    )
    hints.setdefault(
        _t03_window(3, a)[1],
        (
            "that window keeps 3 sentences before the hit: window()'s before defaults to 3 (its "
            "signature in section 1), so pass before=0 as well as after"
        ),
    )


def _late_start_hints(hints: dict[Any, str], a: int) -> None:
    """03b.1's slips that start the window one sentence after the hit (before = -1): ending
    where the right window ends, or counting `a` sentences on from that late start."""
    hints[_t03_window(-1, a)[1]] = (
        "your window starts one sentence after the hit; the hit itself is the window's first "
        "sentence, so the slice starts where the hit starts"
    )
    hints.setdefault(
        _t03_window(-1, a + 1)[1],
        f"your window starts one sentence after the hit and takes {a} after that start; the hit "
        "itself is the window's first sentence, so count the sentences after it from the hit",
    )


def _forward_window_hints() -> dict[Any, str]:
    """03b.1's slips: one sentence short or too many, the window on both sides or on the wrong
    side or starting one sentence late, the notebook's own 3 each side, the window's characters or
    words or its whole section counted, the sentence count given for tokens."""
    a = _fewest_after()
    hints: dict[Any, str] = {}
    for after in range(a):
        recall, tokens = _t03_window(0, after)
        hints[tokens] = (
            f"that window (the hit and {after} after it) holds {round(recall * 3)} of t03's 3 "
            "facts; window(spans, i, before, after) includes its last sentence, so count on "
            "until step 5 is inside"
        )
    hints[_t03_window(0, a + 1)[1]] = (
        "that window holds all three facts, but so does one a sentence shorter: the question "
        "asks the fewest sentences after the hit"
    )
    hints.setdefault(  # two sentences too many (three run on to the document's end, below)
        _t03_window(0, a + 2)[1],
        "that window holds all three facts, but so does one 2 sentences shorter: the question "
        "asks the fewest sentences after the hit",
    )
    hints[_t03_window(a, a)[1]] = (
        f"that is {a} sentences on each side; the question asks none before the hit"
    )
    hints[_t03_window(a, 0)[1]] = (
        "that window lies on the wrong side: the steps come after the procedure's opening line, "
        "so take none before and count after"
    )
    _three_before_hints(hints, a)
    doc, _, spans, i = _t03_hit()  # the section holding the hit: notebook 03's parent
    parents = MarkdownChunker(max_tokens=45, count_tokens=approx_tokens).parents(doc)
    (parent,) = [p for p in parents if p.start <= spans[i][0] < p.end]
    title, section = parent.metadata["section"].split(" > ")[-1], COUNTERS["cl100k"](parent.text)
    whole, words = f"the whole {title!r} section's cl100k tokens", _t03_window(0, a, "approx")[1]
    counted = {_t03_window(0, a, "characters")[1]: "the window's characters (len)"}
    counted[words] = "the window's approx_tokens, its words × 4/3"
    counted[section] = f"{counted[words]}, or {whole}" if section == words else whole
    for tokens, what in counted.items():
        hints[tokens] = f"that is {what}; the question asks the window's cl100k tokens"
    hints[a] = f"{a} is how many sentences after the hit; the question asks the window's tokens"
    hints.setdefault(
        a + 1, f"{a + 1} is how many sentences the window holds; the question asks its tokens"
    )
    _late_start_hints(hints, a)
    hints[_t03_window(1, a)[1]] = (
        "that window includes the sentence before the hit; take the slice "
        "policy.text[a:b] from the hit's own start, none before"
    )
    joined = _t03_space_joined(a)
    spaces = "you joined the sentences with spaces: join nothing, take the slice policy.text[a:b]"
    both = f"two slips give this count, check which is yours: {hints.get(joined)}; or {spaces}"
    hints[joined] = both if joined in hints else spaces
    for tokens, hint in _forward_window_overreach_hints(a).items():
        hints.setdefault(tokens, hint)
    hints.pop(_forward_window_tokens(), None)
    return hints


def _forward_window_overreach_hints(a: int) -> dict[int, str]:
    """03b.1's slips past the right window's edges: run on to the document's end, or the slice
    started a character early, on the line break before the hit; and its words counted."""
    doc, _, spans, i = _t03_hit()
    return {
        _t03_window(0, a, "words")[1]: (
            "that is the window's words (split); the question asks the window's cl100k tokens"
        ),
        _t03_window(0, len(spans) - 1 - i)[1]: (
            "that window runs from the hit to the document's end; window() clips there, so the "
            "last sentence is the first one after the hit that brings step 5 in, not the last one"
        ),
        COUNTERS["cl100k"](doc.text[spans[i][0] - 1 : spans[i + a][1]]): (
            "your slice starts a character early, on the line break before the hit; start it at "
            "the hit's own start, spans[i][0]"
        ),
    }


SOLUTIONS_SMALL_TO_BIG: dict[str, tuple[str, Callable[[], Any]]] = {
    "03b.1": ("an int: cl100k tokens in the window", _forward_window_tokens),
}

FORMS_SMALL_TO_BIG: dict[str, Form] = {
    "03b.1": Form(misses=_forward_window_hints),
}
