"""Exercise 01.1's check: two cuts counted question by question, won, lost and tied, from spans.

01.1, `compare_cuts(text, cut_a, cut_b, questions)`: notebook 01's question-by-question count of
two cuts, each read as a retriever handing over a chunk with the next one reads it. A question
is answered by a cut when ONE of its chunks, `text[start:end]`, or one chunk read with the next
one, `text[cut[k][0]:cut[k + 1][1]]` (one span), holds every fact the question needs as whole words
(notebook 01's `holds_fact`; the texts are lower case, with nothing to fold); the pair is counted
won (a answers it, b does not), lost (the other way) or tied (both or neither). Single chunks
alone, notebook 01's own count pasted, are refused with a hint naming the pairs. The first case
puts `seal` inside `sealant`, where a substring test credits a chunk with a fact it does not
hold, as it finds the manual's `acao` inside `vibracao`; the second cuts `sealant` at a chunk's
end, where the chunk holds `seal` whole and its pair does not (pairs without single chunks fail
it); the others are drawn from a fixed seed over `exercises_cut_tests.WORDS`, none inside
another; a fact of two words split by a line break in the text is not held (a run of split words
would take it); a digit next to a digit fact ('5' in '45') and a phrase inside longer words
('pump seal' in 'pump sealant') are not held. An
answer that calls the library's matcher (`chunks_with_all`, `answerable`, `holds_fact`) is
refused, and the slip a wrong answer makes on every case is named (`checking.consistent_slips`),
else the first case it got wrong is shown. An answer right on every case is then run on the
manual, 200/40's spans against 200/0's (the exercise's second half), and the pass line says the
count and the longest span a pair hands over.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.documents.series import load_document
from chunklab.evaluation.metrics import chunks_with_all
from chunklab.evaluation.questions import load_questions
from chunklab.teaching.checking import Cases, NotYet, consistent_slips, run_without, short
from chunklab.teaching.exercises_cut_tests import WORDS, Span, draw_words, random_cut
from chunklab.teaching.fact_matching import answerable, holds_fact
from chunklab.tokens.folding import fold

Case = tuple[str, list[Span], list[Span], list[list[str]]]


def _has(fact: str, chunk: str) -> bool:
    """`fact` in `chunk` as whole words: no word character just before or after it."""
    return re.search(r"(?<!\w)" + re.escape(fact) + r"(?!\w)", chunk) is not None


def _answered(text: str, cut: list[Span], facts: list[str]) -> bool:
    return any(all(_has(f, text[a:b]) for f in facts) for a, b in cut)


def _read(cut: list[Span]) -> list[Span]:
    """What a cut hands over: each chunk, and each chunk with the next one as one span."""
    return [*cut, *((a, d) for (a, _), (_, d) in zip(cut, cut[1:], strict=False))]


def _count(
    answered: Callable[[str, list[Span], list[str]], bool],
    case: Case,
    read: Callable[[list[Span]], list[Span]] = _read,
) -> tuple[int, ...]:
    """Won, lost, tied, with `answered` asked of the spans `read` makes of each cut."""
    text, cut_a, cut_b, questions = case
    a, b = read(cut_a), read(cut_b)
    pairs = [(answered(text, a, q), answered(text, b, q)) for q in questions]
    return (
        sum(x and not y for x, y in pairs),
        sum(y and not x for x, y in pairs),
        sum(x == y for x, y in pairs),
    )


def expected_counts(text: str, cut_a: list[Span], cut_b: list[Span], qs: list[list[str]]) -> tuple:
    return _count(_answered, (text, cut_a, cut_b, qs))


def _word_run(fact: str, chunk: str) -> bool:
    """`fact`'s words as a run of the chunk's split words: a line break passes for a space."""
    words, parts = chunk.split(), fact.split()
    return any(words[k : k + len(parts)] == parts for k in range(len(words)))


def _glued(text: str, cut: list[Span], facts: list[str]) -> bool:
    """Each chunk, and each with the next one as the two texts glued (an overlap repeated)."""
    texts = [text[a:b] for a, b in cut]
    return any(
        all(_has(f, t) for f in facts)
        for t in [*texts, *map("".join, zip(texts, texts[1:], strict=False))]
    )


def _pairs_only(cut: list[Span]) -> list[Span]:
    return _read(cut)[len(cut) :]


def _pairs_else_single(cut: list[Span]) -> list[Span]:
    return _pairs_only(cut) or list(cut)


def _one_past_its_end(cut: list[Span]) -> list[Span]:
    return [*cut, *((a, b + 1) for a, b in cut)]


def _with_both_neighbours(cut: list[Span]) -> list[Span]:
    return [
        *_read(cut),
        *((a, d) for (a, _), _, (_, d) in zip(cut, cut[1:], cut[2:], strict=False)),
    ]


def _singles_but_last(cut: list[Span]) -> list[Span]:
    return _read(cut)[: len(cut) - 1] + _read(cut)[len(cut) :]


def _in_either(text: str, cut: list[Span], facts: list[str]) -> bool:
    """A chunk alone, or a chunk and the next one with each fact whole in one of the two."""
    texts = [text[a:b] for a, b in cut]
    return any(all(_has(f, t) for f in facts) for t in texts) or any(
        all(_has(f, x) or _has(f, y) for f in facts) for x, y in zip(texts, texts[1:], strict=False)
    )


def _letters_apart(fact: str, chunk: str) -> bool:
    return re.search(r"(?<![a-z])" + re.escape(fact) + r"(?![a-z])", chunk) is not None


def _split_or_in(fact: str, chunk: str) -> bool:
    """One word among the split words; a phrase as a plain substring."""
    return fact in chunk if " " in fact else fact in chunk.split()


def _spread(text: str, cut: list[Span], facts: list[str]) -> bool:
    return all(any(_has(f, text[a:b]) for a, b in cut) for f in facts)


def _totals(text: str, a: list[Span], b: list[Span], qs: list[list[str]]) -> tuple[int, ...]:
    ta = sum(_answered(text, _read(a), q) for q in qs)
    tb = sum(_answered(text, _read(b), q) for q in qs)
    return max(ta - tb, 0), max(tb - ta, 0), len(qs) - abs(ta - tb)


def _both_only(text: str, a: list[Span], b: list[Span], qs: list[list[str]]) -> tuple[int, ...]:
    won, lost, _ = expected_counts(text, a, b, qs)
    return won, lost, sum(_answered(text, _read(a), q) and _answered(text, _read(b), q) for q in qs)


def _neither_only(text: str, a: list[Span], b: list[Span], qs: list[list[str]]) -> tuple[int, ...]:
    won, lost, _ = expected_counts(text, a, b, qs)
    a, b = _read(a), _read(b)
    return won, lost, sum(not _answered(text, a, q) and not _answered(text, b, q) for q in qs)


_NO_TIES = "tied is not 0: it counts the questions both cuts answer and the ones neither answers"
COUNT_SLIPS: list[tuple[Callable[..., Any], str]] = [
    (
        lambda *case: _count(_answered, case, read=list),
        "a question is also answered by a chunk read with the next one, "
        "text[cut[k][0]:cut[k + 1][1]]: "
        "you counted single chunks only (section 2's rule)",
    ),
    (
        lambda *case: _count(lambda t, cut, facts: _glued(t, cut, facts), case, read=list),
        "read a chunk with the next one as ONE span, text[cut[k][0]:cut[k + 1][1]], not the two "
        "texts glued: where they overlap, the glued text repeats it and cuts a fact in two",
    ),
    (
        lambda *case: _count(_answered, case, read=_pairs_only),
        "a chunk alone counts too: a cut of one chunk has no next one",
    ),
    (
        lambda *case: _count(_answered, case, read=_pairs_else_single),
        "a chunk alone counts even when it has a next one: one that ends inside a word "
        "('pump seal|ant') holds 'seal' whole, and its pair with the next one does not",
    ),
    (
        lambda *case: _count(_answered, case, read=_singles_but_last),
        "every chunk counts alone, the last one included: your loop over single chunks stops "
        "one short",
    ),
    (
        lambda *case: _count(_in_either, case, read=list),
        "read a chunk with the next one as ONE span, text[cut[k][0]:cut[k + 1][1]]: a fact cut "
        "at the border between them is whole in the span and in neither chunk alone",
    ),
    (
        lambda *case: _count(_answered, case, read=_one_past_its_end),
        "a chunk read with the next one runs from its start to the NEXT chunk's end, "
        "text[cut[k][0]:cut[k + 1][1]], not one character past its own end",
    ),
    (
        lambda *case: _count(_answered, case, read=_with_both_neighbours),
        "read a chunk with the NEXT one only: two chunks, not the one before and the one after",
    ),
    (
        lambda *case: _count(
            lambda t, cut, facts: any(all(f in t[a:b] for f in facts) for a, b in cut), case
        ),
        "a fact counts as WHOLE words: a substring test finds 'seal' inside 'sealant', as "
        "notebook 01's finds 'acao' inside 'vibracao'",
    ),
    (
        lambda *case: _count(
            lambda t, cut, facts: any(all(f in t[a:b].split() for f in facts) for a, b in cut),
            case,
        ),
        "a fact can be several words ('pump seal'): look for it in the chunk's text, not among "
        "its split words",
    ),
    (
        lambda *case: _count(
            lambda t, cut, facts: any(all(_word_run(f, t[a:b]) for f in facts) for a, b in cut),
            case,
        ),
        "a fact is its exact text, space included: 'pump seal' is not in 'pump\\nseal' (a line "
        "break between the words), which a run of split words takes for it",
    ),
    (
        lambda *case: _count(
            lambda t, cut, fs: any(all(_letters_apart(f, t[a:b]) for f in fs) for a, b in cut),
            case,
        ),
        "a whole word has no letter AND no digit beside it: '5' is not in '45'; test for a word "
        "character, (?<!\\w) and (?!\\w), not for letters only",
    ),
    (
        lambda *case: _count(
            lambda t, cut, fs: any(all(_split_or_in(f, t[a:b]) for f in fs) for a, b in cut),
            case,
        ),
        "a fact of several words is whole words too: 'pump seal' is not in 'pump sealant', which "
        "a plain substring test finds",
    ),
    (
        lambda *case: _count(_spread, case),
        "a question is answered only when ONE chunk holds all its facts: you took each fact "
        "from any chunk",
    ),
    (
        lambda *case: _count(lambda t, cut, facts: all(_has(f, t) for f in facts), case),
        "you looked for the facts in the whole text: look in each chunk, text[start:end]",
    ),
    (
        lambda *case: _count(
            lambda t, cut, facts: any(any(_has(f, t[a:b]) for f in facts) for a, b in cut), case
        ),
        "a chunk must hold ALL of a question's facts, not one of them",
    ),
    (
        _totals,
        "you compared the two totals: compare question by question (a cut can win some and "
        "lose others)",
    ),
    (
        lambda *case: expected_counts(*case)[1::-1] + expected_counts(*case)[2:],
        "won and lost are swapped: won counts the questions cut_a answers and cut_b does not",
    ),
    (lambda *case: expected_counts(*case)[:2] + (0,), _NO_TIES),
    (lambda *case: expected_counts(*case)[:2], "return (won, lost, tied): you left tied out"),
    (
        _both_only,
        "tied counts every question the two cuts agree on, the ones neither answers too",
    ),
    (
        lambda *case: _count(
            lambda t, cut, facts: any(all(_has(f, t[a : b + 1]) for f in facts) for a, b in cut),
            case,
        ),
        "end is exclusive: a chunk is text[start:end], not text[start:end + 1]",
    ),
    (
        lambda *case: _count(
            lambda t, cut, facts: any(all(_has(f, t[a : b - 1]) for f in facts) for a, b in cut),
            case,
        ),
        "end is exclusive, and text[start:end] already stops before it: take nothing off",
    ),
    (
        _neither_only,
        "tied counts every question the two cuts agree on, the ones both answer too",
    ),
]


def count_cases() -> list[Case]:
    text = "pump seal\nvalve gauge belt\nmotor"  # seal with pump in one chunk only in cut a
    inside = "pump sealant\nvalve seal"  # 'seal' inside 'sealant': no seal in cut a's first chunk
    far = "pump sealant\nbelt motor hose\nvalve seal"  # the whole 'seal' two chunks after 'pump'
    cases: list[Case] = [
        (inside, [(0, 12), (12, 23)], [(0, 23)], [["pump", "seal"], ["valve", "seal"]]),
        # 'pump seal|ant': the first chunk holds 'seal' whole, its pair with the next does not
        (inside[:18], [(0, 9), (9, 18)], [(0, 18)], [["pump", "seal"]]),
        (text, [(0, 14), (10, 31)], [(0, 7), (7, 31)], [["pump", "seal"], ["gauge", "motor"]]),
        (text, [], [(0, len(text))], [["pump"], ["rotor"]]),
        # read with its neighbour, 'sealant' is still no 'seal'; 'pump\nseal' is no 'pump seal'
        (far, [(0, 12), (12, 28), (28, len(far))], [(0, len(far))], [["pump", "seal"]]),
        ("pump\nseal valve", [(0, 16)], [], [["pump seal"], ["valve"]]),
        # 'pump seal' only in the pair's span: glued, the overlap 'p se' repeats and splits it
        (text, [(0, 7), (3, 14), (14, 31)], [(0, 4), (4, 31)], [["pump seal"], ["belt", "pump"]]),
        # '5' only inside '45' beside 'belt'; 'pump seal' only inside 'pump sealant'
        (
            "belt 45\nmotor hose\nvalve 5",
            [(0, 7), (7, 18), (18, 26)],
            [(0, 26)],
            [["belt", "5"], ["motor"]],
        ),
        ("pump sealant\nbelt", [(0, 17)], [], [["pump seal"], ["belt"]]),
    ]
    rng = random.Random(103)
    for _ in range(60):
        words = draw_words(rng, rng.randint(4, 20))
        text = "".join(w + rng.choice(" \n ") for w in words).rstrip()
        questions = []
        for _ in range(rng.randint(1, 10)):
            k = rng.randint(0, len(words) - 1)
            phrase = " ".join(words[k : k + rng.randint(1, 2)]) if rng.random() < 0.3 else None
            facts = [phrase] if phrase and phrase in text else rng.sample(WORDS, rng.randint(1, 3))
            questions.append(facts)
        cases.append((text, random_cut(rng, len(text)), random_cut(rng, len(text)), questions))
    return cases


def check_compare_cuts(fn: Callable) -> Cases:
    cases = count_cases()
    for case in cases:
        text, cut_a, cut_b, questions = case
        got = run_without(
            fn,
            (text, list(cut_a), list(cut_b), [list(q) for q in questions]),
            [chunks_with_all, answerable, holds_fact],
            "your function calls {name}: the exercise asks you to test each chunk, "
            "text[start:end], yourself",
        )
        try:
            counts = tuple(int(x) for x in got)
        except (TypeError, ValueError):
            counts = None
        right = expected_counts(*case)
        if counts != right:
            slips = consistent_slips(fn, COUNT_SLIPS, cases, shape=lambda r: tuple(map(int, r)))
            why = "; or ".join(slips) or (
                "per question, a cut answers it when one chunk, or one chunk read with the next "
                "one as one span, holds all its facts; every chunk counts alone, the last one "
                "included; won: a answers and b does not, lost: the other way, tied: the rest"
            )
            raise NotYet(
                f"text {short(text, 50)}, cut_a {short(cut_a, 40)}, cut_b {short(cut_b, 40)}, "
                f"questions {short(questions, 50)}: expected {right}, got "
                f"{short(counts if counts is not None else got)}: {why}"
            )
    return Cases(len(cases) + 1, _on_the_manual(fn, len(cases)))


@functools.cache
def manual_case() -> Case:
    """The exercise's second half: the manual folded, 200/40's spans and 200/0's, folded facts."""
    doc = load_document("manual")
    spans = [
        [(c.start, c.end) for c in FixedSizeChunker(size=200, overlap=o).split(doc)]
        for o in (40, 0)
    ]
    facts = [[fold(f) for f in q.facts] for q in load_questions("manual").questions]
    return fold(doc.text), spans[0], spans[1], facts


def _on_the_manual(fn: Callable, unseen: int) -> str:
    """The second half checked: the learner's count on the manual, and what a pair hands over."""
    text, cut_a, cut_b, facts = manual_case()
    got = tuple(int(x) for x in fn(text, list(cut_a), list(cut_b), [list(q) for q in facts]))
    right = expected_counts(text, cut_a, cut_b, facts)
    if got != right:
        raise NotYet(f"on the manual (the second half), expected {right}, got {got}")
    longest = [max(b - a for a, b in _read(cut)) for cut in (cut_a, cut_b)]
    return (
        f"{unseen} it had not seen and the manual, where 200/40 against 200/0, read in "
        f"pairs, is won {right[0]}, lost {right[1]}, tied {right[2]}; a pair hands the model up "
        f"to {longest[0]} characters at 200/40, {longest[1]} at 200/0"
    )


CHECKS_WON_LOST: dict[str, tuple[str, Callable[[Callable], Cases]]] = {
    "01.1": (
        "compare_cuts(text, cut_a, cut_b, questions) -> (won, lost, tied)",
        check_compare_cuts,
    ),
}
