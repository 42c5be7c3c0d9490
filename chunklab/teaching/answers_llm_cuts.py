"""Exercises 04b.2's and 04b.2b's answers, computed from the library, and the plausible wrong
answers their refusals recognise: what `LLMChunker` sends over the 18F page (calls and prompt
tokens) when a stand-in names one cut halfway through every call, so that the text after each cut
is sent again, and how many tokens that adds to the pass with no cut.

Kept apart from `teaching.answers_semantic`, which registers it, so that file stays small. Reading
this file gives the answer away: try first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.llm import SPLIT_PROMPT, LLMChunker
from chunklab.documents.series import list_documents, load_document
from chunklab.tokens.counters import cl100k


def _no_model(prompt: str) -> str:
    raise RuntimeError("building prompts never calls a model")


def last_cut_at(share: float, sent: list[str]) -> Callable[[str], str]:
    """Notebook 04b's stand-in, not a model: in every call, one cut after `share` of the pieces
    shown; every prompt it is sent is kept in `sent`."""

    def reply(prompt: str) -> str:
        sent.append(prompt)
        shown = [int(n) for n in re.findall(r"<\|start_chunk_(\d+)\|>", prompt)]
        k = int(len(shown) * share)
        return f"split_after: {shown[k - 1]}" if 1 <= k < len(shown) else "split_after:"

    return reply


def sent_on_schedules(share: float | None = 0.5) -> list[str]:
    """The prompts LLMChunker sends over the 18F page with the stand-in at `share`; None: the
    first pass with no cut named (`prompts`)."""
    page = load_document("work_schedules")
    if share is None:
        return LLMChunker(_no_model).prompts(page)
    sent: list[str] = []
    LLMChunker(last_cut_at(share, sent)).split(page)
    return sent


def first_pass_on_schedules(share: float | None = 0.5) -> tuple[int, int]:
    """04b.2: (calls, cl100k prompt tokens) LLMChunker sends over the 18F page when every call's
    reply names one cut halfway through the pieces shown."""
    prompts = sent_on_schedules(share)
    return len(prompts), sum(cl100k(p) for p in prompts)


def _miscounted(calls: int, tokens: int, sent: list[str], page_text: str) -> list[tuple[Any, str]]:
    """A call count one off, and the prompts' or the page's characters where cl100k tokens are
    asked."""
    return [
        (
            (calls + step, tokens),
            "one call off: count the prompts the stand-in was sent, len(sent), rather than "
            "divide tokens",
        )
        for step in (-1, 1)
    ] + [
        (
            (calls, sum(len(p) for p in sent)),
            "that counts characters: count the cl100k tokens of each prompt, cl100k(prompt)",
        ),
        (
            (calls, len(page_text)),
            "that counts the page's characters: count the cl100k tokens of each prompt sent",
        ),
    ]


def _first_prompt_left_out(calls: int, tokens: int, sent: list[str]) -> list[tuple[Any, str]]:
    """Every prompt summed but the first, with its call counted or not."""
    rest = tokens - cl100k(sent[0])
    return [
        (
            (calls, rest),
            "those tokens leave out the first prompt: sum over every prompt the stand-in was "
            "sent, the first included",
        ),
        (
            (calls - 1, rest),
            "that leaves out the first prompt, in the calls and in the tokens: count every "
            "prompt in sent, the first included",
        ),
    ]


def _wrong_document() -> list[tuple[Any, str]]:
    """The same passes run on section 4's topics document instead of the 18F page."""
    topics = load_document("topics")
    sent: list[str] = []
    LLMChunker(last_cut_at(0.5, sent)).split(topics)
    hint = 'that is the topics document; load work_schedules: load_document("work_schedules")'
    no_cut = LLMChunker(_no_model).prompts(topics)
    return [
        ((len(sent), sum(cl100k(p) for p in sent)), hint),
        ((len(no_cut), sum(cl100k(p) for p in no_cut)), hint),
    ]


def first_pass_misses() -> dict[Any, str]:
    """Each slip computed by doing it: no cut, another share, the page's tokens, the order."""
    calls, tokens = first_pass_on_schedules()
    page = load_document("work_schedules")
    pieces = len(LLMChunker(_no_model).pieces(page))
    sent = sent_on_schedules()
    slips = [
        (
            first_pass_on_schedules(None),
            "that is the pass with no cut named, prompts(page); with the stand-in each next call "
            "starts after its cut, so run LLMChunker(last_cut_at(0.5, sent)).split(page) and "
            "count what it sent",
        ),
        (
            first_pass_on_schedules(0.25),
            "that is the stand-in cutting after a quarter of each call: use last_cut_at(0.5, ...)",
        ),
        (
            first_pass_on_schedules(0.75),
            "that is the stand-in cutting after three quarters of each call: use "
            "last_cut_at(0.5, ...)",
        ),
        (
            (calls, cl100k(page.text)),
            "that second number is the page's own tokens; count the "
            "prompts' tokens, instruction and tags included",
        ),
        (
            (pieces, tokens),
            "that first number counts the pieces; the question counts the calls (the prompts)",
        ),
        ((tokens, calls), "the right numbers in the wrong order: (calls, prompt_tokens)"),
        (
            (1, cl100k(sent[0])),
            "that is the first prompt alone: the stand-in keeps every prompt it is sent, "
            "so count them all and sum the tokens of each",
        ),
        (
            (calls, cl100k(sent[0])),
            "the calls are right; the tokens are the first prompt's alone: sum over every prompt",
        ),
        (
            (calls, tokens - calls * cl100k(SPLIT_PROMPT.format(first=1, pieces=""))),
            "those tokens leave out the instruction: every call re-sends it; count prompts whole",
        ),
        ((1, tokens), "the tokens are right, but they do not fit one call: count the prompts"),
        (
            (calls, sum(cl100k(piece.text) for piece in LLMChunker(_no_model).pieces(page))),
            "that counts the page's pieces once each; each prompt also holds the instruction and "
            "the tags, and the pieces after each cut are sent again",
        ),
    ]
    slips += _miscounted(calls, tokens, sent, page.text) + _first_prompt_left_out(
        calls, tokens, sent
    )
    slips += _wrong_document() + [_next_exercises_answer(calls), (_stale_list(), _STALE_HINT)]
    return _wrong_only(slips, (calls, tokens))


_STALE_HINT = (
    "that list still holds section 2's prompts, sent over every document of the series: start "
    "with an empty list, sent = [], then run the stand-in on the page"
)


def _stale_list() -> tuple[int, int]:
    """(calls, prompt tokens) counted in section 2's `sent`, already filled over every document
    of the series, after the page's pass is added to it: the notebook, run in order, gives this."""
    sent: list[str] = []
    for name in list_documents():
        LLMChunker(last_cut_at(0.5, sent)).split(load_document(name))
    LLMChunker(last_cut_at(0.5, sent)).split(load_document("work_schedules"))
    return len(sent), sum(cl100k(p) for p in sent)


def _next_exercises_answer(calls: int) -> tuple[Any, str]:
    """04b.2b's answer (the extra tokens) put in 04b.2's slot for the whole pass."""
    return (
        (calls, resent_on_schedules()),
        "that second number is 04b.2b's answer, the extra tokens beyond the pass with no cut; "
        "04b.2 asks for every prompt token the stand-in was sent",
    )


def _wrong_only(slips: list, right: Any) -> dict[Any, str]:
    """The slips as answer -> hint, dropping one that happens to equal the right answer (a hint
    must never refuse it) and keeping the first hint where two slips give the same answer."""
    misses: dict[Any, str] = {}
    for answer, hint in slips:
        if answer != right:
            misses.setdefault(answer, hint)
    return misses


def resent_on_schedules() -> int:
    """04b.2b: the cl100k prompt tokens the halfway stand-in's pass sends beyond the pass with no
    cut named: the pieces sent again after each cut, and the instruction of each extra call."""
    return first_pass_on_schedules()[1] - first_pass_on_schedules(None)[1]


def resent_misses() -> dict[Any, str]:
    """Each slip computed by doing it: a total for the difference, the sign, characters, the
    instruction of the extra calls left out."""
    right = resent_on_schedules()
    calls, tokens = first_pass_on_schedules()
    no_cut_calls, no_cut_tokens = first_pass_on_schedules(None)
    instruction = cl100k(SPLIT_PROMPT.format(first=1, pieces=""))
    characters = sum(len(p) for p in sent_on_schedules()) - sum(
        len(p) for p in sent_on_schedules(None)
    )
    slips = [
        (tokens, "that is the stand-in's whole pass: subtract what the pass with no cut sends"),
        (
            no_cut_tokens,
            "that is the pass with no cut named; the question asks what the stand-in sends "
            "beyond it",
        ),
        (-right, "the right size, the wrong sign: the stand-in's pass sends more, not less"),
        (characters, "that counts characters: count cl100k tokens, cl100k(prompt)"),
        (
            right - (calls - no_cut_calls) * instruction,
            "those are the re-sent pieces alone; each extra call also sends the instruction again",
        ),
        (
            (calls - no_cut_calls) * instruction,
            "that is only the instruction of each extra call; the pieces sent again after each "
            "cut count too: subtract the two passes' prompt tokens",
        ),
        (
            tokens - cl100k(load_document("work_schedules").text),
            "that subtracts the page's own tokens; subtract the pass with no cut named, "
            "prompts(page), which holds the instruction and the tags too",
        ),
        (_stale_list()[1] - no_cut_tokens, _STALE_HINT),
    ]
    return {answer: hint for answer, hint in slips if answer != right}
