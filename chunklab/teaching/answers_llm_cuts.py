"""Exercise 04b.2's answer, computed from the library, and the plausible wrong answers its refusal
recognises: what a first pass of `LLMChunker` over the 18F page sends (calls and prompt tokens).

Kept apart from `teaching.answers_semantic`, which registers it, so that file stays small. Reading
this file gives the answer away: try first.
"""

from __future__ import annotations

from typing import Any

from chunklab.chunkers.llm import SPLIT_PROMPT, LLMChunker
from chunklab.documents.series import load_document
from chunklab.tokens.counters import cl100k


def _no_model(prompt: str) -> str:
    raise RuntimeError("building prompts never calls a model")


def first_pass_on_schedules() -> tuple[int, int]:
    """04b.2: (calls, cl100k prompt tokens) of LLMChunker's first pass over the 18F page."""
    prompts = LLMChunker(_no_model).prompts(load_document("work_schedules"))
    return len(prompts), sum(cl100k(p) for p in prompts)


def first_pass_misses() -> dict[Any, str]:
    """Each slip computed by doing it: the page's own tokens, pieces for calls, the order."""
    calls, tokens = first_pass_on_schedules()
    page = load_document("work_schedules")
    pieces = len(LLMChunker(_no_model).pieces(page))
    slips = [
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
            (1, cl100k(LLMChunker(_no_model).prompts(page)[0])),
            "that is the first prompt alone: prompts(page) returns every call of the pass, "
            "so count them all and sum the tokens of each",
        ),
        (
            (calls, cl100k(LLMChunker(_no_model).prompts(page)[0])),
            "the calls are right; the tokens are the first prompt's alone: sum over every prompt",
        ),
        (
            (calls, tokens - calls * cl100k(SPLIT_PROMPT.format(first=1, pieces=""))),
            "those tokens leave out the instruction: every call re-sends it; count prompts whole",
        ),
        ((1, tokens), "the tokens are right, but they do not fit one call: count the prompts"),
        (
            (calls, sum(cl100k(piece.text) for piece in LLMChunker(_no_model).pieces(page))),
            "that counts the pieces alone; each prompt also holds the instruction and the tags",
        ),
    ]
    slips += [
        (
            (calls + step, tokens),
            "one call off: windows hold whole pieces and the last one may be short, so count "
            "the prompts, len(LLMChunker(complete).prompts(page)), rather than divide tokens",
        )
        for step in (-1, 1)
    ]
    misses: dict[Any, str] = {}
    for answer, hint in slips:
        if answer != (calls, tokens):
            misses.setdefault(answer, hint)
    return misses
