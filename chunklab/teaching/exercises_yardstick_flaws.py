"""Exercise 08c.1's check: a conversion's lead over its plain text, the yardstick's flaws left out.

Why a check of its own: companion 08c's skill is checking the yardstick before counting wins. A
question whose facts are not all in a baseline's plain text (an extractor dropped the list's
numbers, the title lives only in the metadata) is lost by that baseline at every budget: a flaw
of the yardstick, not something the structure bought. The learner writes
`lead_without_flaws(questions, conversion, baseline, texts)`: leave out each question that some
fact of it is missing from its own document's plain text, read word by word as
`plain_text_baseline.plain` reads it, then return `(won, lost)`, the ids the conversion answers
and the baseline does not, and the other way round.

Each plausible slip agrees with that on most questions: nothing left out, the fact looked for as raw
characters (markup or a line break hides it), one side read word by word and the other raw, one fact
found enough, one fact alone looked at (the first or the last), any document's text searched, words
matched inside longer ones ("5 days" inside "15 days"), a fact's words found anywhere in the text in
any order, the facts edited (a list number dropped) until the text holds them, every question the
baseline misses left out (then nothing is ever won), a tie counted, won and lost swapped. The fixed
case below, none of it shown in the notebook, tells each apart; the drawn ones test the rest. Any
correct method passes: the two groups as lists, tuples or sets, in any order.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable

from chunklab.teaching.checking import NotYet, consistent_slips, short
from chunklab.teaching.conversion_measures import plain, words

Case = tuple[list[dict], dict[str, bool], dict[str, bool], dict[str, str]]
Found = Callable[[str, str], bool]  # (fact, text) -> is the fact in the text?


def _in_words(fact: str, text: str) -> bool:
    return plain(fact) in plain(text)


def _split(
    case: Case,
    found: Found = _in_words,
    *,
    join: Callable = all,
    own: bool = True,
    drop_missed: bool = False,
    ties: bool = False,
) -> tuple[list[str], list[str]]:
    """The answer with no keyword given; each keyword writes one slip."""
    questions, conversion, baseline, texts = case
    won, lost = [], []
    for q in questions:
        where = [texts[q["document"]]] if own else list(texts.values())
        if not join(any(found(f, t) for t in where) for f in q["facts"]):
            continue  # the baseline's text cannot hold this question: the yardstick's flaw
        if drop_missed and not baseline[q["id"]]:
            continue
        a, b = conversion[q["id"]], baseline[q["id"]]
        if a and (not b or ties):
            won.append(q["id"])
        elif b and not a:
            lost.append(q["id"])
    return won, lost


def _unpadded(fact: str, text: str) -> bool:
    return " ".join(plain(fact).split()) in " ".join(plain(text).split())


def _bag(fact: str, text: str) -> bool:
    return set(words(fact)) <= set(words(text))


def _repaired(fact: str, text: str) -> bool:
    """The fact "fixed" first, its list number and bold marks dropped, then read word by word."""
    return plain(re.sub(r"^\s*\d+\.\s*|\*\*", "", fact)) in plain(text)


SLIPS: list[tuple[Callable[[Case], tuple[list[str], list[str]]], str]] = [
    (
        lambda case: _split(case, lambda f, t: True),
        "you left nothing out: a question whose facts are not all in its document's plain text is "
        "lost by that baseline at every budget, a flaw of the yardstick (section 1's t03); leave "
        "it out before counting",
    ),
    (
        lambda case: _split(case, lambda f, t: f in t),
        "you looked for each fact as raw characters: a fact quotes the Markdown ('**', '|', a line "
        "break where the text has a space); compare word by word, as `plain(fact) in plain(text)`",
    ),
    (
        lambda case: _split(case, lambda f, t: plain(f) in t),
        "you read one side word by word and the other as raw characters: pass both the fact and "
        "the text through `plain`",
    ),
    (
        lambda case: _split(case, join=any),
        "you kept a question when one of its facts is in the text: a chunk answers only when it "
        "holds every fact, so one fact missing from the whole text is enough to leave it out",
    ),
    (
        lambda case: _split(case, join=lambda found: list(found)[-1]),
        "you checked one fact of the question, its last: a chunk answers only when it holds every "
        "fact, so look for each of them, all(...) over the question's facts",
    ),
    (
        lambda case: _split(case, join=lambda found: next(iter(found))),
        "you checked one fact of the question, its first: a chunk answers only when it holds "
        "every fact, so look for each of them, all(...) over the question's facts",
    ),
    (
        lambda case: _split(case, own=False),
        "you looked for the facts in every document's text: a question is answered from its own "
        "document, texts[q['document']]",
    ),
    (
        lambda case: _split(case, _unpadded),
        "you matched words inside longer words ('5 days' inside '15 days'): pad both sides with a "
        "space, as `plain` does",
    ),
    (
        lambda case: _split(case, _bag),
        "you matched each fact's words as a set, in any order: every word of 'Get the passport' "
        "is in the text, but not together; look for the fact as a run of words, "
        "`plain(fact) in plain(text)`",
    ),
    (
        lambda case: _split(case, _repaired),
        "you edited the facts (a list's number or markup dropped) until the plain text holds them: "
        "the facts are the yardstick, keep them as written; leave out the question whose "
        "document's plain text cannot hold one",
    ),
    (
        lambda case: _split(case, drop_missed=True),
        "you left out every question the baseline misses: then the conversion can never win one; "
        "leave out only those the baseline's plain text cannot hold at all",
    ),
    (
        lambda case: _split(case, ties=True),
        "you counted as won a question both answer: won means the conversion answers it and the "
        "baseline does not (a tie is neither won nor lost)",
    ),
    (
        lambda case: _split(case)[::-1],
        "won and lost are swapped: return (won, lost), won the questions the conversion answers "
        "and the baseline does not",
    ),
]


def _case(texts: dict[str, str], rows: list[tuple[str, str, list[str], bool, bool]]) -> Case:
    questions = [{"id": i, "document": d, "facts": facts} for i, d, facts, _, _ in rows]
    return (
        questions,
        {i: a for i, _, _, a, _ in rows},
        {i: b for i, _, _, _, b in rows},
        texts,
    )


_VISA = "Visa guide\nBefore you go\nCheck the passport\nGet the stamp\nPay the fee 15 days ahead\n"
_LEAVE = "Leave policy\nStaff get 25 days a year\nCarry over up to\n5 days\nAsk your lead\n"

FIXED: list[Case] = [
    _case(
        {"visa": _VISA, "leave": _LEAVE},
        [
            ("v1", "visa", ["1. Check the passport", "2. Get the stamp"], True, False),  # numbers
            ("v2", "visa", ["**Pay the fee**"], True, False),  # markup: raw misses it
            ("v3", "visa", ["Check the passport", "3. Book the flight"], True, False),  # one of two
            ("v4", "visa", ["Carry over up to"], True, False),  # only in the other document
            ("v5", "visa", ["5 days ahead"], True, False),  # inside "15 days ahead"
            ("v6", "visa", ["Get the stamp"], True, True),  # a tie
            ("v7", "visa", ["Get the passport"], True, False),  # its words there, not in order
            (
                "v8",
                "visa",
                ["3. Book the flight", "Get the stamp"],
                True,
                False,
            ),  # the first missing
            ("l1", "leave", ["Carry over up to 5 days"], False, True),  # a line break: raw misses
            ("l2", "leave", ["25 days a year"], True, False),
            ("l3", "leave", ["Ask your lead"], False, False),
        ],
    ),
]


def _drawn(rng: random.Random) -> Case:
    vocab = "pump valve seal shaft bolt filter gasket torque limit daily check log hours".split()
    texts, rows = {}, []
    for doc in ("alpha", "beta", "gamma")[: rng.randint(1, 3)]:
        source = []
        for n in range(1, rng.randint(4, 8)):
            line = " ".join(rng.choice(vocab + [str(rng.choice([15, 25, 150]))]) for _ in range(4))
            source.append(rng.choice([f"{n}. {line}", f"**{line}**", line]))
        text = "\n".join(re.sub(r"^\d+\. |\*\*", "", s) for s in source)
        texts[doc] = text.replace(" ", "\n", rng.randint(0, 3))
        for i in range(rng.randint(2, 6)):
            words = rng.choice(source).split()
            start = rng.randint(0, len(words) - 2)
            fact = " ".join(words[start : start + rng.randint(2, 3)])
            facts = [fact, re.sub(r"\b1(\d)\b", r"\1", fact)] if rng.random() < 0.3 else [fact]
            fair = all(_in_words(f, texts[doc]) for f in facts)
            answered = rng.random() < 0.6, fair and rng.random() < 0.5  # conversion, baseline
            rows.append((f"{doc[0]}{i}", doc, facts, *answered))
    return _case(texts, rows)


def _cases() -> list[Case]:
    rng = random.Random(8)
    return [*FIXED, *(_drawn(rng) for _ in range(40))]


def _read(got: object) -> tuple[list[str], list[str]]:
    if not isinstance(got, list | tuple) or len(got) != 2:
        raise NotYet(f"return two groups of question ids, (won, lost), got {short(got)}")
    groups = []
    for group in got:
        if not isinstance(group, list | tuple | set) or not all(isinstance(i, str) for i in group):
            raise NotYet(f"each of won and lost is a list of question ids, got {short(group)}")
        groups.append(sorted(group))
    return groups[0], groups[1]


def _slips_matching(fn: Callable) -> list[str]:
    """The hints of the slips that read every fixed case as the learner's function does."""
    slips = [(lambda *case, slip=slip: _read(slip(case)), hint) for slip, hint in SLIPS]
    return consistent_slips(fn, slips, FIXED, shape=_read)


def check_lead_without_flaws(fn: Callable) -> int:
    """Run the learner's `lead_without_flaws` on every case; a wrong one names its slip."""
    cases = _cases()
    for case in cases:
        won, lost = map(sorted, _split(case))
        got = _read(fn(*copy.deepcopy(case)))
        if got != (won, lost):
            why = "; or ".join(_slips_matching(fn))
            questions, _, _, texts = case
            raise NotYet(
                f"{why or 'not the lead the rule gives'}. Case: {len(questions)} questions on "
                f"{len(texts)} documents: expected won {won}, lost {lost}; got won {got[0]}, "
                f"lost {got[1]}"
            )
    return len(cases)


CHECKS_YARDSTICK_FLAWS: dict[str, tuple[str, Callable[[Callable], int]]] = {
    "08c.1": (
        "lead_without_flaws(questions, conversion, baseline, texts) -> (won ids, lost ids)",
        check_lead_without_flaws,
    ),
}
