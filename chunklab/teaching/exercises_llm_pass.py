"""Companion 04b's second check (04b.2): a first pass written from scratch, the calls it makes
when the model names cuts (each call takes pieces until they pass the call's tokens; the next
call starts after the last cut named; a call showing the last piece ends the pass), run on piece
sizes and stand-in models the notebook never shows. Unlike the notebook's prompt loop, the pass
must not trust the model: a reply naming a piece outside the call, or not strictly ascending, is
refused with `ValueError` (as `split_after` refuses it), on stand-ins that send one such reply. It
refuses a call into `LLMChunker` and names each predictable slip (no resumption, resuming at the
cut itself or after the first cut, a call stopped before it passes its tokens, a call after the
last piece, pieces numbered from 0, a bad reply followed, a well-formed one refused).
Registered in `exercises`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from chunklab.chunkers.llm import LLMChunker
from chunklab.teaching.checking import NotYet, run_without, short

Window = tuple[int, int]
Model = Callable[[int, int], list[int]]


def _full(used: int, call_tokens: int, slip: str) -> bool:
    """A call is full once its pieces pass call_tokens (or, with the slip, reach it)."""
    return used >= call_tokens if slip == "reaches" else used > call_tokens


def _windows(tokens: list[int], model: Model, call_tokens: int, slip: str = "") -> list[Window]:
    """The calls of a pass (1-based first and last piece shown), as `LLMChunker.split` makes them,
    or with one named slip."""
    n, first, calls = len(tokens), 1, list[Window]()
    while first <= n and len(calls) <= 4 * n:
        used, last = 0, first - 1
        while last < n and (last == first - 1 or not _full(used, call_tokens, slip)):
            if slip == "stops before" and last > first - 1 and used + tokens[last] > call_tokens:
                break
            used, last = used + tokens[last], last + 1
        calls.append((first, last))
        if last == n and slip != "past the end":
            break
        named = model(first, last)
        if slip == "no resumption" or not named:
            first = last + 1
        else:
            first = named[0] + 1 if slip == "first cut" else named[-1] + 1
    return calls


def _stand_in(cut_after: set[int], limit: int) -> tuple[Model, list[int]]:
    """A model that, shown pieces first..last, names the pieces of `cut_after` among them; it
    refuses to answer more than `limit` calls (a pass that never ends)."""
    asked: list[int] = []

    def model(first: int, last: int) -> list[int]:
        asked.append(first)
        if len(asked) > limit:
            raise NotYet(
                f"more than {limit} calls for {limit // 4} pieces: the pass never ends; the next "
                "call starts at the piece after the last cut named, not at that piece"
            )
        return [k for k in sorted(cut_after) if first <= k <= last]

    return model, asked


_SLIPS = {
    "no resumption": "each call starts after the previous window: after a cut, the next call "
    "starts at the piece right after the last cut named, so the pieces after it are sent again",
    "first cut": "yours starts after the first cut named; the next call starts after the last one",
    "stops before": "a call takes pieces until they pass call_tokens: the piece that passes it is "
    "in the call (and a call always holds at least one piece)",
    "past the end": "a call that shows the last piece ends the pass: no call after it",
    "reaches": "a call takes pieces until they pass call_tokens (more than it), not until they "
    "reach it: pieces that come to exactly call_tokens leave room for one more",
}


def _starts_at_a_cut(calls: list[Window], cut_after: set[int]) -> bool:
    """A call that starts at the last piece the call before it cut after (that piece ends a chunk:
    the next call starts at the piece after it), however the loop was kept from repeating."""
    for (a, b), (nxt, _) in zip(calls, calls[1:], strict=False):
        named = [k for k in cut_after if a <= k <= b]
        if named and nxt == max(named):
            return True
    return False


def _cases() -> list[tuple[list[int], set[int], int]]:
    rng = np.random.default_rng(42)
    cases = [([30, 40, 50, 20, 60], {2}, 100), ([10] * 12, {3, 5, 9}, 35), ([90], set(), 50)]
    for _ in range(25):
        n = int(rng.integers(4, 30))
        tokens = [int(t) for t in rng.integers(5, 60, n)]
        cuts = {int(k) for k in rng.choice(np.arange(1, n + 1), int(rng.integers(0, n // 2 + 1)))}
        cases.append((tokens, cuts, int(rng.integers(40, 200))))
    return cases


# A reply the pass must refuse, sent once, to the second call of 12 pieces of 10 tokens at
# call_tokens=25 (calls of 3 pieces: the second shows 4 to 6), and why following it is wrong.
_BAD_REPLIES: dict[str, tuple[Callable[[int, int], list[int]], str]] = {
    "past the call": (
        lambda first, last: [last + 2],
        "names a piece past the call's last, though inside the document: a pass that followed it "
        "would skip pieces no call shows",
    ),
    "before the call": (
        lambda first, last: [first - 1],
        "names a piece before the call's first (one an earlier call showed): a pass that followed "
        "it would go back; check first <= n <= last, not 1 <= n",
    ),
    "out of order": (
        lambda first, last: [last, first],
        "is not ascending: which cut is the last one is a guess",
    ),
    "repeated": (
        lambda first, last: [last - 1, last - 1],
        "names a piece twice: strictly ascending, a number repeated is out of order too",
    ),
}


def _refuses(fn: Callable, watched: list[Callable], refusal: str) -> None:
    """Each bad reply, sent once, must end the pass in ValueError."""
    tokens = [10] * 12
    for bad, why in _BAD_REPLIES.values():
        answered: list[tuple[int, int, list[int]]] = []

        def model(first: int, last: int, bad=bad, answered=answered) -> list[int]:
            named = bad(first, last) if len(answered) == 1 else []
            answered.append((first, last, named))
            return named

        try:
            got = run_without(fn, (list(tokens), model, 25), watched, refusal)
        except ValueError:
            continue
        except NotYet:
            raise
        except Exception as error:
            raise NotYet(
                f"a bad reply from the model ended your pass in {type(error).__name__}; raise "
                "ValueError, as split_after does"
            ) from None
        first, last, named = next((a for a in answered[1:2]), (0, 0, []))
        said = (
            f"the reply {named} to the call showing pieces {first}-{last}"
            if named
            else ("a bad reply to the pass's second call")
        )
        raise NotYet(
            f"pieces of {tokens} tokens, call_tokens=25: {said} {why}; your pass went on "
            f"({short(got)}): raise ValueError, a reply you cannot trust must never become a guess"
        )


def check_pass_windows(fn: Callable) -> int:
    """04b.2: the (first, last) pieces of every call of a pass, on every case."""
    watched: list[Callable] = [LLMChunker.window, LLMChunker.split, LLMChunker.prompts]
    refusal = (
        "your function calls {name}, the library's pass: write the loop itself (fill a call, "
        "ask the model, start the next call after its last cut)"
    )
    for tokens, cut_after, call_tokens in _cases():
        model, asked = _stand_in(cut_after, 4 * len(tokens))
        try:
            got = run_without(fn, (list(tokens), model, call_tokens), watched, refusal)
        except ValueError as error:
            raise NotYet(
                f"pieces of {tokens} tokens, call_tokens={call_tokens}, cuts after "
                f"{sorted(cut_after)}: every reply here is well formed (ascending, inside the "
                f"call's pieces, maybe empty or naming its last), yet your pass raised ValueError "
                f"({error})"
            ) from None
        expected = _windows(tokens, _stand_in(cut_after, 10**6)[0], call_tokens)
        try:
            got = [(int(a), int(b)) for a, b in got]
        except (TypeError, ValueError):
            raise NotYet(f"return a list of (first, last) pairs, not {short(got)}") from None
        if got == expected:
            continue
        case = (
            f"pieces of {tokens} tokens, call_tokens={call_tokens}, cuts after {sorted(cut_after)}"
        )
        why = next(
            (
                hint
                for slip, hint in _SLIPS.items()
                if got == _windows(tokens, _stand_in(cut_after, 10**6)[0], call_tokens, slip)
            ),
            "pieces are numbered from 1, as in the prompt's tags"
            if got == [(a - 1, b - 1) for a, b in expected]
            else "a call of yours starts at the piece the call before it cut after; that piece "
            "ends a chunk, and the next call starts at the piece right after it"
            if _starts_at_a_cut(got, cut_after)
            else "compare your calls with the expected ones",
        )
        raise NotYet(f"{case}: expected calls {expected}, got {short(got)}: {why}")
    _refuses(fn, watched, refusal)
    return len(_cases()) + len(_BAD_REPLIES)


CHECKS_LLM_PASS = {
    "04b.2": (
        "pass_windows(piece_tokens, model, call_tokens) -> list of (first, last)",
        check_pass_windows,
    ),
}
