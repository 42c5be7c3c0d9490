"""Companion 06c's check (06c.1): a context sentence shortened to the room a chunk leaves it.

`fit_sentence(sentence, room)` returns the sentence whole when it holds at most `room` cl100k
tokens; else its longest start cut at a space and followed by " …" that holds at most `room`;
when the last word kept is a label ending in ":" ("begins:"), the whole sentences before it
instead, with no "…"; "" when not even one word fits. That is `prefixes.fit_prefix` with the
chunker's measure, so a call to it is refused. Run on sentences the notebook never shows, naming
each predictable slip: a cut inside a word, the cut measured without its " …", words counted as
tokens, tokens estimated from characters, the label left dangling or cut to its first words,
the mark written "…" or " ...", "…" alone when no word fits, a sentence that fits cut all the
same, a sentence of exactly `room` tokens cut, a word with ":" inside ("10:00") taken for a label,
the words before a label kept when no sentence ends before it, " …" after the whole sentences
kept before a label, a comma stripped before " …".
Expected and got are printed from where they part. Registered in `exercises`.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chunklab.chunkers.prefixes import fit_prefix, offline_context, with_context
from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short
from chunklab.tokens.counters import cl100k

Measure = Callable[[str], int]


def _fit(
    sentence: str,
    room: int,
    count: Measure = cl100k,
    mark_measured: bool = True,
    label_rule: bool = True,
    empty: str = "",
    whole_first: bool = True,
    mark: str = " …",
    whole_fits_below: bool = False,
    cut_fits_below: bool = False,
    label_word_only: bool = False,
    is_label: Callable[[str], bool] = lambda word: word.endswith(":"),
    no_sentence: str | None = None,
    label_mark: str = "",
) -> str:
    """The expected answer, one switch per slip: the longest word cut, scanned from the top."""
    fits_whole = count(sentence) < room if whole_fits_below else count(sentence) <= room
    if whole_first and fits_whole:
        return sentence
    words = sentence.split(" ")
    measured = mark if mark_measured else ""
    n = next(
        (
            n
            for n in range(len(words) - 1, 0, -1)
            if count(" ".join(words[:n]) + measured) < room + (not cut_fits_below)
        ),
        0,
    )
    if n and label_word_only and words[n - 1].endswith(":"):
        return " ".join(words[: n - 1]) + mark if n > 1 else empty
    if n and label_rule and is_label(words[n - 1]):
        whole = max((i + 1 for i in range(n - 1) if words[i].endswith(".")), default=0)
        if not whole and no_sentence is not None:
            return " ".join(words[: n - 1]) + no_sentence
        return " ".join(words[:whole]) + (label_mark if whole else "")
    return " ".join(words[:n]) + mark if n else empty


def _inside_a_word(sentence: str, room: int) -> str:
    if cl100k(sentence) <= room:
        return sentence
    k = next((k for k in range(len(sentence) - 1, 0, -1) if cl100k(sentence[:k] + " …") <= room), 0)
    return sentence[:k] + " …" if k else ""


_SLIPS: list[tuple[Callable[[str, int], str], str]] = [
    (_inside_a_word, "you cut inside a word: cut at a space, keeping whole words"),
    (
        lambda s, r: _fit(s, r, mark_measured=False),
        "you measured the cut without its ' …' and added it after: the cut with its ' …' "
        "must hold at most `room` tokens",
    ),
    (
        lambda s, r: _fit(s, r, count=lambda t: len(t.split())),
        "you counted words; the room is in cl100k tokens (cl100k(text))",
    ),
    *(
        (
            lambda s, r, estimate=estimate: _fit(s, r, count=estimate),
            "you estimated tokens from characters (len(text) / 4); the room is in cl100k tokens, "
            "counted exactly: cl100k(text)",
        )
        for estimate in (lambda t: len(t) / 4, lambda t: len(t) // 4, lambda t: -(-len(t) // 4))
    ),
    (
        lambda s, r: _fit(s, r, label_word_only=True),
        "you dropped only the word ending in ':' and kept the cut ('… The section …'); when the "
        "cut's last word is a label, keep the whole sentences before the label, with no '…'",
    ),
    (
        lambda s, r: _fit(s, r, mark="…"),
        "the mark is ' …', a space then '…': the cut's last word and the mark stay apart",
    ),
    (
        lambda s, r: _fit(s, r, mark=" ..."),
        "the mark is '…', one character (U+2026), not three dots '...'",
    ),
    *(
        (
            lambda s, r, cut=cut: _fit(s, r, whole_fits_below=True, cut_fits_below=cut),
            "a sentence, or a cut with its ' …', of exactly `room` tokens fits: 'at most room' "
            "includes room itself",
        )
        for cut in (False, True)
    ),
    (
        lambda s, r: _fit(s, r, is_label=lambda word: ":" in word),
        "a word with ':' inside it ('10:00') is no label: a label is a word ending in ':', "
        "so a cut ending on '10:00' keeps its ' …'",
    ),
    *(
        (
            lambda s, r, tail=tail: _fit(s, r, no_sentence=tail),
            "with no whole sentence before the label (no word ending in '.'), there is nothing to "
            "keep: return '', not the words before the label",
        )
        for tail in (" …", "")
    ),
    (
        lambda s, r: _fit(s, r, label_mark=" …"),
        "after a label, the whole sentences before it stand alone: no ' …' after them",
    ),
    (
        lambda s, r: _fit(s, r).replace(", …", " …"),
        "you stripped the comma before ' …': keep the last word as written, then ' …'",
    ),
    (
        lambda s, r: _fit(s, r).replace(". …", " …"),
        "you stripped the period before ' …' ('Booking …' for 'Booking. …'): keep the last word "
        "as written, its period too, then ' …'",
    ),
    (
        lambda s, r: _fit(s, r, label_rule=False),
        "you left a label dangling ('The section begins: …' announces what no longer follows): "
        "keep the whole sentences before the label instead, with no '…'",
    ),
    (
        lambda s, r: _fit(s, r) or "…",
        "when nothing is kept (not even one word fits, or no sentence ends before a label), "
        "return '' (an empty prefix), not '…'",
    ),
    (
        lambda s, r: _fit(s, r, whole_first=False),
        "a sentence that fits is kept whole, with no '…'",
    ),
]

_FIXED: list[tuple[str, int]] = [
    ("From Travel Policy, section Booking. The section begins: Book flights early.", 40),
    ("From Travel Policy, section Booking. The section begins: Book flights early.", 12),
    ("From Travel Policy, section Booking. The section begins: Book flights early.", 10),
    ("From Travel Policy, section Booking. The section begins: Book flights early.", 3),
    ("From Travel Policy, section Booking. The section begins: Book flights early.", 8),  # ". …"
    ("From Travel Policy, section Booking. The section begins: Book flights early.", 1),
    ("From Manual de Operações, section 3. Tabela de tolerância.", 9),
    ("From Manual de Operações, section 3. Tabela de tolerância.", 6),
    ("From Manual de Operações, section 3. Tabela de tolerância.", 16),  # exactly its tokens
    (
        "From the Handbook, section Leave > Sick leave > Notice. The section begins: Tell your "
        "manager before 10:00 on the first day of absence.",
        20,
    ),
    (
        "From the Handbook, section Leave > Sick leave > Notice. The section begins: Tell your "
        "manager before 10:00 on the first day of absence.",
        16,
    ),
    (  # the cut ends on "10:00", a word with ":" inside, not a label
        "From the Handbook, section Leave > Sick leave > Notice. The section begins: Tell your "
        "manager before 10:00 on the first day of absence.",
        25,
    ),
    (  # the cut ends on a label with no whole sentence before it
        "From Runbook, section Escalation: call the duty manager first, then the on-call engineer.",
        10,
    ),
    ("A SEV-1 incident wakes the on-call engineer within 5 minutes, day or night.", 12),
]


def _apart(expected: str, got: str) -> str:
    """Expected and got from a little before the first character where they part, so two long
    strings that share their start do not print alike."""
    at = next(
        (i for i, (x, y) in enumerate(zip(expected, got, strict=False)) if x != y),
        min(map(len, (expected, got))),
    )
    start = max(0, at - 30)
    cut = lambda text: ("…" if start else "") + repr(text[start:])  # noqa: E731
    return f"expected {cut(expected)}, got {cut(got)}"


_TITLES = ["Travel Policy", "Manual de Operações", "Runbook", "Security Handbook", "API guide"]
_PATHS = [
    "Booking",
    "Per diem",
    "International Travel > Visa and approvals",
    "2.1 Visual",
    "Incidents > Severity levels > SEV-1",
    "Escopo",
]
_LEADS = [
    "Book flights and hotels at least 7 days in advance.",
    "Per diem covers meals.",
    "A SEV-1 incident wakes the on-call engineer within 5 minutes, day or night.",
    "O técnico registra a vibração: até 4,5 mm/s.",
    "",
]


def _random_case(rng: random.Random) -> tuple[str, int]:
    sentence = f"From {rng.choice(_TITLES)}, section {rng.choice(_PATHS)}."
    lead = rng.choice(_LEADS)
    if lead:
        sentence += f" The section begins: {lead}"
    return sentence, rng.randint(0, cl100k(sentence) + 2)


def check_fit_sentence(fn: Callable) -> int:
    """06c.1: `fit_sentence(sentence, room)` on sentences the notebook never shows."""
    rng = random.Random(63)
    cases = [*_FIXED, *(_random_case(rng) for _ in range(40))]
    refusal = (
        "your function calls {name}, which shortens the prefix for you; the exercise is the "
        "shortening: cut the sentence at a space, measure each cut with its ' …'"
    )
    for sentence, room in cases:
        expected = _fit(sentence, room)
        got = run_without(
            fn, (sentence, room), [fit_prefix, offline_context, with_context], refusal
        )
        if not isinstance(got, str):
            raise NotYet(f"return the shortened sentence as a str, not {short(got)}")
        if got != expected:
            named = list(dict.fromkeys(consistent_slips(fn, _SLIPS, _FIXED, shape=lambda x: x)))
            over = cl100k(got) > room
            why = (
                "; and also: ".join(named)
                if named
                else (
                    f"your result holds {cl100k(got)} tokens, over the room"
                    if over
                    else "keep the longest start of whole words that fits with its ' …'"
                )
            )
            raise NotYet(
                f"on {short(sentence, 60)} with room {room}: {_apart(expected, got)} ({why})"
            )
    return len(cases)


CHECKS_CONTEXT_FIT = {
    "06c.1": ("fit_sentence(sentence, room) -> str", check_fit_sentence),
}
