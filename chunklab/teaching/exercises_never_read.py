"""Exercise 09.2's check: how many characters of a text a model never reads, worked out from its
tokenizer's offsets and its limit in positions, whatever markers the model adds.

MiniLM adds two markers, `[CLS]` first and `[SEP]` last, so it reads 254 pieces of text in its 256
positions; other models add one, or three. The learner's `never_read(text, offsets, limit)` gets the
offsets a tokenizer gives (one `(first, past-last)` pair per position, each marker `(0, 0)`) and
must count the markers itself. The cases come from a made-up tokenizer (runs of letters cut every
four characters) with the markers laid out four ways, so `MiniLMEmbedder.read_until`, which reads
with MiniLM's own tokenizer, cannot answer them; a call to it is refused. Each predictable slip is
named: two markers assumed (on the offsets or on the pieces of text), the markers not counted,
the markers after the text dropped (`offsets[:limit]`), one character short, the start of the last
piece read, a piece too few or too many, the characters read, pieces instead of characters, blanks
left out, a text of exactly `limit` positions, no case for a text that fits (whose end blanks are
read).
`try_on_the_manual` then runs the learner's function on the Portuguese manual with MiniLM's
offsets. Registered in `exercises`.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable

from chunklab.documents.series import load_document
from chunklab.embeddings.minilm import MiniLMEmbedder
from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short

Offsets = list[tuple[int, int]]
Case = tuple[str, Offsets, int]
MARKER = (0, 0)


def _text_pieces(offsets: Offsets) -> Offsets:
    return [tuple(o) for o in offsets if tuple(o) != MARKER]  # type: ignore[misc]


def _stop(
    text: str,
    offsets: Offsets,
    limit: int,
    *,
    markers: int | None = None,
    shift: int = 0,
    edge: int = 1,
    room: int = 0,
) -> int | None:
    """Where the model stops, with one slip switchable: `markers` (how many are counted; None:
    the (0, 0) entries), `shift` (pieces more or fewer), `edge` (0: the last piece's start),
    `room` (1: a text of exactly `limit` positions taken for one that does not fit)."""
    if len(offsets) + room <= limit:
        return len(text)
    counted = sum(tuple(o) == MARKER for o in offsets) if markers is None else markers
    pieces, k = _text_pieces(offsets), limit - counted + shift
    # as a learner's pieces[k - 1] reads: a k of 0 takes the last piece, past the end raises
    return pieces[k - 1][edge] if -len(pieces) < k <= len(pieces) else None


def never_read(text: str, offsets: Offsets, limit: int) -> int:
    """The reference: the characters after the end of the last piece of text read."""
    return len(text) - _stop(text, offsets, limit)  # type: ignore[operator]


def _minus(text: str, stop: int | None) -> int | None:
    return None if stop is None else len(text) - stop


def _fits_without_markers(text: str, offsets: Offsets, limit: int) -> int | None:
    """The fit tested on the pieces of text alone, the markers left out of the count."""
    if len(_text_pieces(offsets)) <= limit:
        return 0
    return never_read(text, offsets, limit)


def _at_index(text: str, offsets: Offsets, limit: int) -> int | None:
    """The markers counted, but offsets indexed as given: the leading markers not skipped."""
    if len(offsets) <= limit:
        return 0
    k = limit - sum(tuple(o) == MARKER for o in offsets)
    return len(text) - offsets[k - 1][1] if 0 < k <= len(offsets) else None


def _no_case_for_a_fit(text: str, offsets: Offsets, limit: int) -> int | None:
    """No special case for a text that fits: the characters after the last piece read, even
    when every piece is read (blanks at the end of a text that fits then count as unread)."""
    pieces = _text_pieces(offsets)
    k = min(limit - sum(tuple(o) == MARKER for o in offsets), len(pieces))
    return len(text) - pieces[k - 1][1] if k > 0 else None


def _first_positions(text: str, offsets: Offsets, limit: int) -> int | None:
    """The offsets cut at `limit` positions, the last piece of text among them: as if the markers
    at the end were dropped with the text, not kept (as counting only the leading markers gives)."""
    if len(offsets) <= limit:
        return 0
    kept = _text_pieces(offsets[:limit])
    return len(text) - kept[-1][1] if kept else None


def _from_next_start(text: str, offsets: Offsets, limit: int) -> int | None:
    """Counted from the start of the first piece not read, not the end of the last one read."""
    if len(offsets) <= limit:
        return 0
    pieces, k = _text_pieces(offsets), limit - sum(tuple(o) == MARKER for o in offsets)
    return len(text) - pieces[k][0] if 0 <= k < len(pieces) else None


_SLIPS: list[tuple[Callable[..., int | None], str]] = [
    (
        lambda t, o, n: 0 if len(o) <= n else len(t) - o[n - 2][1],
        "offsets[limit - 2] is MiniLM's case, one marker first and one last; this model adds "
        "others: count the (0, 0) entries, and limit minus that many pieces of text are read",
    ),
    (
        lambda t, o, n: _minus(t, _stop(t, o, n, markers=2)),
        "limit - 2 pieces of text is MiniLM's case (254 of 256); this model adds other markers: "
        "count the (0, 0) entries, and limit minus that many pieces of text are read",
    ),
    (
        _first_positions,
        "the markers after the text were left out (offsets[:limit] drops them with the text, or "
        "only those before it were counted), but the model keeps them and they take positions: "
        "limit minus every (0, 0) entry's count pieces of text are read",
    ),
    (
        lambda t, o, n: never_read(t, o, n) - 1 if len(o) > n else 0,
        "one character short: a piece's second number is already past its last character, so "
        "len(text) minus it counts every character after the piece, none to subtract",
    ),
    (
        lambda t, o, n: _minus(t, _stop(t, o, n, markers=0)),
        "the markers take positions too: limit minus the number of (0, 0) entries pieces of text "
        "are read, not limit",
    ),
    (
        _at_index,
        "offsets[i] counts the leading markers: take the pieces of text alone (the entries that "
        "are not (0, 0)) and the last one read among them",
    ),
    (
        lambda t, o, n: _minus(t, _stop(t, o, n, edge=0)),
        "a piece read is read whole: count from the end of the last piece read (its second "
        "number), not its start",
    ),
    (
        lambda t, o, n: _minus(t, _stop(t, o, n, shift=-1)),
        "one piece of text too few: with m markers the model reads limit - m pieces of text, "
        "and the last of them is pieces[limit - m - 1], counted from 0",
    ),
    (
        lambda t, o, n: _minus(t, _stop(t, o, n, shift=1)),
        "one piece of text too many: with m markers the model reads limit - m pieces of text, "
        "and the last of them is pieces[limit - m - 1], counted from 0",
    ),
    (
        lambda t, o, n: _stop(t, o, n),
        "that is where the model stops, the characters it reads; the exercise asks those it "
        "never reads: len(text) minus that",
    ),
    (
        lambda t, o, n: max(0, len(o) - n),
        "that counts positions never read; the exercise asks characters",
    ),
    (
        lambda t, o, n: len(re.sub(r"\s", "", t[_stop(t, o, n) or 0 :])),
        "count every character never read, spaces and line breaks too",
    ),
    (
        _from_next_start,
        "that counts from the start of the first piece not read; the blank before it is never "
        "read either: count from the end of the last piece read",
    ),
    (
        lambda t, o, n: len(t[_stop(t, o, n) or 0 :].strip()),
        "the blanks at the ends of the part never read are characters never read too: count "
        "text[stop:] as it is, not stripped",
    ),
    (
        lambda t, o, n: len(t[_stop(t, o, n) or 0 :].rstrip()),
        "the blanks at the end of the text are characters never read too: count text[stop:] as "
        "it is, not rstripped",
    ),
    (
        _no_case_for_a_fit,
        "a text that fits (len(offsets) <= limit, markers included) is read whole, blanks at its "
        "end too: return 0 for it; count after the last piece read only in a text that is cut",
    ),
    (
        _fits_without_markers,
        "whether a text fits counts its markers too: len(offsets), markers included, against limit",
    ),
    (
        lambda t, o, n: _minus(t, _stop(t, o, n, room=1)),
        "a text of exactly `limit` positions, markers included, is read whole: len(offsets) <= "
        "limit fits, and nothing is left unread",
    ),
]


def _toy(text: str, before: int, after: int) -> Offsets:
    """A made-up tokenizer: each run of letters or digits cut every four characters, any other
    non-blank character a piece of its own; `before` markers first and `after` last."""
    pieces = [
        (a, min(a + 4, m.end()))
        for m in re.finditer(r"\w+|[^\w\s]", text)
        for a in range(m.start(), m.end(), 4)
    ]
    return [MARKER] * before + pieces + [MARKER] * after


def _cases() -> list[Case]:
    """Four layouts of markers; cuts inside a word and at a word's end (the next piece starts
    after a blank); a text that fits exactly, with blanks at its end, one that fits with room,
    one a position over; no markers at all."""
    flights = "Economy class is the default for flights under 6 hours."
    manual = "A inspeção visual ocorre a cada 30 dias.  \n"
    policy = "Per diem covers meals.\nLodging is reimbursed at cost.\n"
    fits = len(_toy(manual, 1, 1))
    return [
        (flights, _toy(flights, 1, 1), 8),
        (flights, _toy(flights, 1, 0), 8),
        (flights, _toy(flights, 0, 1), 9),
        (flights, _toy(flights, 2, 1), 10),
        (policy, _toy(policy, 1, 1), 6),
        (policy, _toy(policy, 0, 0), 5),
        (policy, _toy(policy, 1, 1), 3),
        (manual, _toy(manual, 1, 1), fits),
        (manual, _toy(manual, 1, 1), fits + 5),
        (manual, _toy(manual, 1, 1), fits - 1),
        (manual, _toy(manual, 2, 1), 7),
    ]


def _answered(fn: Callable, cases: list[Case]) -> list[Case]:
    """The cases `fn` returns on: a slip that reads past the pieces raises on a text that fits
    with a position to spare, and the slip is still named from the others."""
    kept = []
    for case in cases:
        try:
            fn(*case)
        except Exception:  # the learner's own error, on this case only
            continue
        kept.append(case)
    return kept


REFUSAL = (
    "your never_read calls {name}, which reads with MiniLM's own tokenizer and its two markers; "
    "these offsets come from another: work from the offsets and the limit given"
)


def check_never_read(fn: Callable) -> int:
    """09.2: `fn(text, offsets, limit)` gives each case the characters never read."""
    cases = _cases()
    library = [MiniLMEmbedder.read_until, MiniLMEmbedder.encoding, MiniLMEmbedder.cut]
    for text, offsets, limit in cases:
        got = run_without(fn, (text, list(offsets), limit), library, REFUSAL)
        expected = never_read(text, offsets, limit)
        if isinstance(got, bool) or not isinstance(got, numbers.Integral):
            raise NotYet(f"return an int, a count of characters, not {short(got)}")
        if got != expected:
            named = consistent_slips(fn, _SLIPS, _answered(fn, cases), shape=lambda r: r)
            markers = sum(tuple(o) == MARKER for o in offsets)
            counted = f"{markers} marker" + "s" * (markers != 1)
            why = (
                named[0]
                if named
                else (
                    "a text that fits (len(offsets) <= limit) is read whole: 0; in a text that "
                    "is cut, find the last piece of text read (limit minus the markers' count, "
                    "among the entries that are not (0, 0)) and count the characters after its end"
                )
            )
            raise NotYet(
                f"text {short(text, 50)}, {len(offsets)} positions ({counted}), limit "
                f"{limit}: expected {expected}, got {short(got)}: {why}"
            )
    return len(cases)


def try_on_the_manual(fn: Callable) -> None:
    """Run the learner's `never_read` on the Portuguese manual with MiniLM's offsets and limit."""
    minilm, text = MiniLMEmbedder(), load_document("manual").text
    offsets = [tuple(o) for o in minilm.encoding(text).offsets]
    try:
        unread = fn(text, offsets, minilm.max_tokens)
    except NotImplementedError:
        print("the manual: waiting for your never_read")
        return
    print(
        f"the manual, {len(offsets)} positions, read {minilm.max_tokens}: yours says "
        f"{unread} characters never read, from {text[len(text) - unread :][:40]!r}"
    )


CHECKS_NEVER_READ = {
    "09.2": ("never_read(text, offsets, limit) -> int", check_never_read),
}
