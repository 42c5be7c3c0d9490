"""Model-chosen cuts: where a language model plugs into chunking, if a team wants one.

Kamradt's "agentic" level and Chroma's `LLMSemanticChunker` hand the choice of cuts to a chat
model. Chroma's version, which this one follows, keeps the text as it is: it cuts the document
into small pieces with its recursive splitter at 50 tokens (`RecursiveChunker`: paragraphs, then
lines, then sentences), wraps each in numbered tags, sends about 800 tokens of them per call with
an instruction to answer `split_after: 3, 5`, and starts the next call at the last split. A chunk
is then a run of whole pieces, an exact slice of the document. The pieces are the model's
resolution: a topic that changes inside a piece cannot get a cut of its own.

chunklab ships no model client and never calls one: `LLMChunker(complete)` takes any
`complete(prompt) -> str` function (a provider's SDK call, a local model), the same shape as
`prefixes.LLMContext`. `prompts(doc)` builds the calls a first pass would send without sending
them, so a team can count their tokens, and price them, before it pays for one. A reply that
names no valid piece is an error that says what came back, never a silent guess.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from chunklab.chunkers.recursive import RecursiveChunker
from chunklab.contracts import Chunk, Document, as_document, span_chunks
from chunklab.tokens.counters import TokenCounter, cl100k

SPLIT_PROMPT = """The text below is cut into numbered pieces, each between <|start_chunk_N|> and
<|end_chunk_N|>. Say after which pieces a new topic starts, so that pieces on one topic stay
together. Reply with piece numbers in ascending order, each at least {first}, on one line:
split_after: 3, 5

{pieces}"""


class LLMChunker:
    """Cuts chosen by a model, between pieces of about `piece_tokens` tokens; text unchanged."""

    def __init__(
        self,
        complete: Callable[[str], str],
        piece_tokens: int = 50,
        call_tokens: int = 800,
        prompt: str = SPLIT_PROMPT,
        count_tokens: TokenCounter = cl100k,
    ) -> None:
        self.complete = complete
        self.piece_tokens = piece_tokens
        self.call_tokens = call_tokens
        self.prompt = prompt
        self.count_tokens = count_tokens

    def pieces(self, doc: Document | str) -> list[Chunk]:
        """The numbered units the model sees: Chroma's recursive pieces of at most `piece_tokens`
        cl100k tokens, each reaching to the next one's start (the whitespace between two pieces
        goes with the first), so that runs of whole pieces tile the document."""
        doc = as_document(doc)
        spans = RecursiveChunker(size=self.piece_tokens, overlap=0).spans(doc.text)
        ends = [start for start, _ in spans[1:]] + [spans[-1][1]] if spans else []
        return span_chunks(
            doc,
            [
                (a, b, self.count_tokens(doc.text[a:b]))
                for (a, _), b in zip(spans, ends, strict=True)
            ],
            "llm-piece",
        )

    def window(self, pieces: list[Chunk], first: int) -> tuple[str, int]:
        """The prompt for the call that starts at piece `first` (0-based), and the index just
        past its last piece: pieces are added until they pass `call_tokens`."""
        tagged, used, k = [], 0, first
        while k < len(pieces) and (k == first or used <= self.call_tokens):
            n = k + 1  # the model sees pieces numbered from 1
            tagged.append(f"<|start_chunk_{n}|>{pieces[k].text}<|end_chunk_{n}|>")
            used += pieces[k].token_count
            k += 1
        return self.prompt.format(first=first + 1, pieces="".join(tagged)), k

    def prompts(self, doc: Document | str) -> list[str]:
        """The prompts of a pass whose every window ends where the next begins (what a model
        that never splits inside a window would be sent): nothing is sent."""
        pieces, out, first = self.pieces(doc), [], 0
        while first < len(pieces):
            text, first = self.window(pieces, first)
            out.append(text)
        return out

    def split(self, doc: Document | str) -> list[Chunk]:
        """Chunks of whole pieces, cut after the pieces the model names; calls `complete`."""
        doc = as_document(doc)
        pieces = self.pieces(doc)
        cuts: list[int] = []  # 0-based index of the last piece before a cut
        first = 0
        while first < len(pieces):
            text, past = self.window(pieces, first)
            named = [n - 1 for n in split_after(self.complete(text), first + 1, past)]
            cuts += [k for k in named if k < len(pieces) - 1]  # none after the last piece
            if past == len(pieces):
                break
            # As Chroma's: the next call starts after the last cut, so the pieces after it are
            # read again in their new context; with no cut, it starts after this window.
            first = named[-1] + 1 if named else past
        bounds = [-1, *sorted(set(cuts)), len(pieces) - 1]
        spans = [
            (pieces[a + 1].start, pieces[b].end) for a, b in zip(bounds, bounds[1:], strict=False)
        ]
        return span_chunks(doc, [(a, b, self.count_tokens(doc.text[a:b])) for a, b in spans], "llm")


# The whole line, and nothing else on it: "split_after:" then whole numbers separated by commas,
# written in 0-9 (`\d` alone would also read another script's digits, '٣' as 3: a guess).
_SPLIT_LINE = re.compile(r"\s*split_after:\s*([0-9]+(?:\s*,\s*[0-9]+)*)?\s*")


def split_after(reply: str, first: int, last: int) -> list[int]:
    """The piece numbers of a `split_after: 3, 5` reply, checked: read from the first line that
    starts with `split_after:` (spaces or tabs before it allowed; a line that only mentions it is
    not the answer), strictly ascending (a repeated number is a reply that did not follow the
    prompt), from `first` to the window's last piece `last` (both 1-based, both included).
    Anything else is a ValueError that quotes the reply."""
    line = next((ln for ln in reply.splitlines() if ln.lstrip().startswith("split_after:")), None)
    if line is None:
        raise ValueError(f"the model's reply has no 'split_after:' line: {reply[:80]!r}")
    listed = _SPLIT_LINE.fullmatch(line)
    if listed is None:  # "3.5" or "3, five": reading its digits would be a guess
        raise ValueError(
            f"the model's 'split_after:' line is not a list of whole numbers: {line!r}"
        )
    numbers = [int(n) for n in re.findall(r"[0-9]+", listed[1] or "")]
    if numbers != sorted(set(numbers)) or any(n < first or n > last for n in numbers):
        raise ValueError(
            f"the model's reply names pieces outside {first}..{last} or out of order: {line!r}"
        )
    return numbers
