"""Exercises 07c.2 and 07b.1: what the experiment notebooks ask a learner to write, checked on cases
the notebooks never show.

07c.2 `cannot_answer(chunks, facts)`: the ids of the questions that no single chunk can answer,
whatever the retriever (`answerable` 0 in 07's rows): a chunk answers when it holds every fact of
the question, ignoring case. The slips named: facts spread over several chunks counted (that is
`fact_recall` 1, m09's case in 07, not a chunk that answers alone), one fact enough, case kept,
accents stripped, a set returned,
the answerable questions returned instead, the ids not sorted, facts matched as whole words or
at word boundaries (a fact is a substring: several words, beside punctuation, inside a word),
`find() > 0` (a fact at position 0 missed), the last chunk skipped; a slip is named only when the
learner's function gives its answers on every case.

07b.1 `standing(family)`: a family of m paired comparisons, each `(name, won, lost, low)` with `low`
the low end of its interval printed at the family's level (100 - 5/m), read as a search: a
comparison is shown ahead when its interval's low end is above 0, it won more than it lost, and
its two-sided sign test gives p < 0.05 / m, with m the number of comparisons in the family. The
slips named: each read at 0.05, m not the family's size (ties left out, a number written in),
Holm's step-down, a comparison shown worse returned too, the interval or the sign test alone, a
one-sided sign test or one of the wins alone (n = won), "more won than lost" dropped.
"""

from __future__ import annotations

import math
import random
import re
import unicodedata
from collections.abc import Callable
from typing import Any

from chunklab.evaluation.metrics import has_facts
from chunklab.teaching.checking import NotYet, consistent_slips, run_without, short
from chunklab.teaching.claims import sign_test

# --- 07c.2: which questions can no chunk answer? -------------------------------------------------

Facts = dict[str, list[str]]


def _holds(text: str, facts: list[str]) -> bool:
    return all(f.lower() in text.lower() for f in facts)


def _unanswerable(chunks: list[str], facts: Facts, holds: Callable = _holds) -> list[str]:
    return sorted(q for q, fs in facts.items() if not any(holds(c, fs) for c in chunks))


def _unaccented(text: str) -> str:
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )


def _by(holds: Callable[[str, list[str]], bool]) -> Callable[[list[str], Facts], list[str]]:
    """The slip of a learner whose test of one chunk is `holds(chunk, facts)`."""
    return lambda chunks, facts: _unanswerable(chunks, facts, holds)


def _bounded(c: str, f: str) -> bool:
    return re.search(rf"\b{re.escape(f.lower())}\b", c.lower()) is not None


_ANSWER_SLIPS: dict[str, Callable[[list[str], Facts], list[str]]] = {
    "you counted a question as answered when its facts are spread over several chunks (that is "
    "`fact_recall` 1, m09's case in 07): the exercise asks for ONE chunk holding every fact": (
        lambda chunks, facts: sorted(
            q for q, fs in facts.items() if not all(any(_holds(c, [f]) for c in chunks) for f in fs)
        )
    ),
    "you counted a chunk holding one of the facts as an answer: it must hold every fact": _by(
        lambda c, fs: any(_holds(c, [f]) for f in fs)
    ),
    "you compared with case: a fact counts whatever its case in the chunk (lower both sides)": _by(
        lambda c, fs: all(f in c for f in fs)
    ),
    "you stripped accents: 07 section 1's slip, 'responsavel tecnico' is not in 'responsável "
    "técnico'; a fact counts only as written, ignoring case alone": _by(
        lambda c, fs: _holds(_unaccented(c), [_unaccented(f) for f in fs])
    ),
    "those are the questions some chunk CAN answer; the exercise asks for the others": (
        lambda chunks, facts: sorted(set(facts) - set(_unanswerable(chunks, facts)))
    ),
    "you matched facts as whole words (the chunk split on spaces): a fact is a substring, so "
    "it may span words ('travel policy'), touch punctuation ('92.') or sit inside a word "
    "('capped')": _by(lambda c, fs: all(f.lower() in c.lower().split() for f in fs)),
    "you matched facts at word boundaries: a fact is a substring, so it may sit inside a longer "
    "word ('cap' in 'capped')": _by(lambda c, fs: all(_bounded(c, f) for f in fs)),
    "you tested find(fact) > 0: find returns 0 for a fact at the chunk's start, a match too "
    "(use `in`, or find(fact) >= 0)": _by(
        lambda c, fs: all(c.lower().find(f.lower()) > 0 for f in fs)
    ),
    "you skipped the last chunk (a range that stops one short): every chunk may answer": (
        lambda chunks, facts: _unanswerable(chunks[:-1], facts)
    ),
}

_WORDS = ["limite", "Diária", "92", "0,08", "Lisbon", "cap", "Owner", "approves", "Q3", "Paris"]


def _answer_cases() -> list[tuple[list[str], Facts]]:
    """Hand-built cases with each slip apart, then random ones; none is a chunk of the series."""
    cases = [
        (
            ["The LIMITE is 92 a night.", "Rates: 0,08 per km", "limite 0,08 applies"],
            {"a1": ["limite", "92"], "a2": ["0,08"], "a3": ["92", "per km"], "a4": ["Limite", "x"]},
        ),
        (
            ["Lisbon cap", "Paris", "the owner approves"],
            {"b1": ["Owner", "approves"], "b2": ["Lisbon", "Paris"]},
        ),
        ([], {"c1": ["anything"]}),
        (  # accents are part of a fact: folding them answers what the text does not hold
            ["o Responsável Técnico assina", "diaria de 92"],
            {"f1": ["responsavel tecnico"], "f2": ["Diária", "92"], "f3": ["técnico"]},
        ),
        (["one chunk holds it all"], {"z9": ["ALL"], "d1": ["holds", "it"], "a0": ["none"]}),
        (  # facts of several words, beside punctuation, inside a longer word: substrings all
            ["Travel Policy: the cap is 92.", "Rates are capped at 0,08 per km"],
            {
                "e1": ["travel policy"],
                "e2": ["92"],
                "e3": ["cap", "0,08"],
                "e4": ["per km"],
                "e5": ["lisbon"],
            },
        ),
    ]
    rng = random.Random(702)
    for _ in range(30):
        chunks = [
            " ".join(rng.sample(_WORDS, rng.randint(1, 4))).swapcase()
            if rng.random() < 0.3
            else " ".join(rng.sample(_WORDS, rng.randint(1, 4)))
            for _ in range(rng.randint(1, 5))
        ]
        facts = {
            f"q{i:02d}": rng.sample(_WORDS, rng.randint(1, 3)) for i in rng.sample(range(40), 5)
        }
        cases.append((chunks, facts))
    return cases


def check_cannot_answer(fn: Callable) -> int:
    cases = _answer_cases()
    for chunks, facts in cases:
        expected = _unanswerable(chunks, facts)
        got = run_without(
            fn,
            (list(chunks), {q: list(fs) for q, fs in facts.items()}),
            has_facts,
            "your function calls chunklab's has_facts: the exercise asks you to write the test "
            "of a chunk yourself",
        )
        ids = list(got) if isinstance(got, list | tuple) else None
        if ids == expected:
            continue
        # a slip is named only if `fn` gives its answer on every case, not on this one by chance
        slips = consistent_slips(fn, [(slip, why) for why, slip in _ANSWER_SLIPS.items()], cases)
        if ids is not None and sorted(map(str, ids)) == expected:
            slips.append("the right ids, not in ascending order: return them sorted")
        if isinstance(got, set | frozenset) and sorted(map(str, got)) == expected:
            slips.append("the right ids in a set: return them as a sorted list")
        raise NotYet(
            f"chunks {short(chunks, 80)}, facts {short(facts, 90)}: expected {expected}, got "
            f"{short(got)}: "
            + (
                "; or ".join(slips)
                or "a question cannot be answered when no one chunk holds "
                "every one of its facts, ignoring case"
            )
        )
    return len(cases)


# --- 07b.1: which verdicts stand at the family's level? -----------------------------------------

Family = list[tuple[str, int, int, float]]


def _ahead(
    family: Family,
    alpha: float,
    interval: bool = True,
    sign: bool = True,
    one_sided: bool = False,
    worse_too: bool = False,
    touching: bool = False,
    normal: float | None = None,
    majority: bool = True,
    p_test: bool = True,
    wins_only: bool = False,
) -> list[str]:
    out = []
    for name, won, lost, low in family:
        p = sign_test(won, 0 if wins_only else lost) / (2 if one_sided else 1)
        if normal is not None:  # the normal approximation, `normal` the continuity correction
            z = max(abs(won - lost) - normal, 0) / math.sqrt(max(won + lost, 1))
            p = min(1.0, math.erfc(z / math.sqrt(2)))
        if worse_too and won < lost and p < alpha:  # shown apart, but behind
            out.append(name)
        elif (not interval or low > 0 or (touching and low == 0)) and (
            not sign or ((won > lost or not majority) and (p < alpha or not p_test))
        ):
            out.append(name)
    return out


def standing_at(family: Family) -> list[str]:
    """The names shown ahead, a search of m = len(family): low > 0, won > lost, p < 0.05 / m."""
    return _ahead(family, 0.05 / len(family)) if family else []


def _holm(family: Family, first: bool = False) -> list[str]:
    """Holm's step-down (the i-th smallest p against 0.05 / (m - i), to the first that fails);
    `first`: only the lines with low > 0 and won > lost are ranked."""
    ahead = [low > 0 and won > lost for _, won, lost, low in family]
    ps = sorted((sign_test(c[1], c[2]), i) for i, c in enumerate(family) if ahead[i] or not first)
    kept: set[int] = set()
    for rank, (p, i) in enumerate(ps):
        if p >= 0.05 / (len(family) - rank):
            break
        kept.add(i)
    return [c[0] for i, c in enumerate(family) if i in kept and ahead[i]]


HOLM = (
    "you read the family by Holm's step-down (the smallest p against 0.05 / m, the next against "
    "0.05 / (m - 1), ...): this notebook prints every line of a family at one level, 0.05 / m "
    "(`family(m)`, Bonferroni's), and the low end you are given is read at that level"
)
WINS_ONLY = (
    "your sign test counts the wins only (n = won, as if nothing was lost): a question lost is "
    "decisive too, n = won + lost, and the tail runs up to min(won, lost)"
)


def _reading_slips(family: Family) -> dict[str, list[str]]:
    m = max(len(family), 1)
    leaning = sum(won > lost for _, won, lost, _ in family) or 1
    return {
        "you read each comparison at 0.05: a family of m picks is read at 0.05 / m": _ahead(
            family, 0.05
        ),
        "you divided by the number of comparisons that lean ahead: m is every comparison in the "
        "family, len(family)": _ahead(family, 0.05 / leaning),
        "you counted only the comparisons with a decisive question (won + lost > 0): a tied "
        "comparison is still one of the family's m, len(family)": _ahead(
            family, 0.05 / max(sum(won + lost > 0 for _, won, lost, _ in family), 1)
        ),
        "you also returned a comparison shown worse (more lost than won): the family asks which "
        "are shown AHEAD": _ahead(family, 0.05 / m, worse_too=True),
        "you divided by m - 1: m is len(family)": _ahead(family, 0.05 / max(m - 1, 1)),
        "you read the interval only: the sign test must also pass, p < 0.05 / m (6-0 is the "
        "fewest that passes at 0.05)": _ahead(family, 0.05 / m, sign=False),
        "you dropped the sign test (the interval and more won than lost only): the two-sided sign "
        "test must reject too, as `compare` asks": _ahead(family, 0.05 / m, p_test=False),
        "you read at Sidak's level, 1 - 0.95 ** (1 / m): this notebook reads a family at 0.05 / m "
        "(`family(m)`), a little stricter": _ahead(family, 1 - 0.95 ** (1 / m)),
        "you read the sign test only: the interval's low end must also be above 0": _ahead(
            family, 0.05 / m, interval=False
        ),
        "your sign test is one-sided: count both tails (double it), as `compare` does": _ahead(
            family, 0.05 / m, one_sided=True
        ),
        "you used the normal approximation (a z-score of won - lost): with a handful of decisive "
        "questions it is too lenient; the sign test is exact, 2 * sum(comb(n, i)) / 2**n": _ahead(
            family, 0.05 / m, normal=0.0
        ),
        "you used the normal approximation with a continuity correction: still not the exact "
        "sign test, 2 * sum(comb(n, i) for i up to min(won, lost)) / 2**n": _ahead(
            family, 0.05 / m, normal=1.0
        ),
        "you dropped 'more won than lost': a positive low end and p < 0.05 / m can come with more "
        "questions lost than won (a few large wins, many small losses: the two-sided sign test "
        "then rejects toward the losses); shown ahead needs won > lost too": _ahead(
            family, 0.05 / m, majority=False
        ),
        "you kept a low end of exactly 0 (low >= 0): an interval that touches 0 does not exclude "
        "it, the low end must be above 0": _ahead(family, 0.05 / m, touching=True),
        HOLM: _holm(family),
        HOLM + " (you ranked only the lines with low > 0 and won > lost)": _holm(
            family, first=True
        ),
        WINS_ONLY: _ahead(family, 0.05 / m, wins_only=True),
        WINS_ONLY + " (and halved it: one-sided)": _ahead(
            family, 0.05 / m, wins_only=True, one_sided=True
        ),
    }


def _fixed_m(fn: Callable) -> list[int]:
    """Every m that `fn` could read every family at: a number written in, not counted."""
    try:
        got = [(list(fn([tuple(c) for c in f])), f) for f in _families()]
    except Exception:  # noqa: BLE001 - a learner's function may raise anything
        return []
    return [m for m in range(1, 61) if all(g == _ahead(f, 0.05 / m) for g, f in got)]


def _families() -> list[Family]:
    cases: list[Family] = [
        [("a", 7, 0, 2.1), ("b", 6, 0, 1.0), ("c", 9, 1, 3.2)],  # m=3: p .0156 / .0312 / .0215
        [("w1", 8, 0, 4.0), ("w2", 5, 0, 0.5), ("w3", 3, 9, -8.0), ("w4", 10, 0, -0.1)],
        [("only", 6, 0, 0.4)],  # m=1: read at 0.05
        [("x", 9, 1, 2.0), ("t1", 0, 0, 0.0), ("t2", 0, 0, 0.0), ("y", 3, 2, -1.0)],  # ties: m=4
        [("up", 8, 0, 4.0), ("down", 0, 9, -9.3), ("flat", 2, 2, -3.0)],  # one shown worse
        [("edge", 9, 0, 0.0), ("clear", 9, 0, 2.3)],  # a low end of exactly 0 is not above 0
        [("x", 2, 12, 1.5), ("y", 9, 0, 2.0)],  # x: a positive low end, p .0129, more lost than won
        [("s", 14, 3, 2.0), ("t", 9, 0, 2.3), ("u", 2, 2, -1.0), ("v", 5, 1, -0.5)],  # s: p .01273
        [
            (f"pair{i}", won, lost, low)
            for i, (won, lost, low) in enumerate(
                [(12, 0, 5.0), (11, 0, 4.2), (10, 0, 3.1), (9, 0, 2.0), (13, 1, 6.0), (7, 0, 1.2)]
            )
        ],
    ]
    rng = random.Random(72)
    for _ in range(30):
        m = rng.randint(2, 12)
        family = []
        for i in range(m):
            won, lost = rng.randint(0, 16), rng.randint(0, 4)
            family.append((f"c{i}", won, lost, round(rng.uniform(-3, 9), 1)))
        cases.append(family)
    return cases


def check_standing(fn: Callable) -> int:
    cases = _families()
    for family in cases:
        expected = standing_at(family)
        got = run_without(
            fn,
            ([tuple(c) for c in family],),
            sign_test,
            "your function calls chunklab's sign_test (or compare's verdict, which calls it): "
            "write the sign test yourself, as 07 writes it in `by_hand`",
        )
        names = list(got) if isinstance(got, list | tuple) else None
        if names == expected:
            continue
        m = len(family)
        slips = [
            why
            for why, slip in _reading_slips(family).items()
            if names == slip != expected and _always(fn, why)
        ]
        fixed = [] if slips else _fixed_m(fn)
        if fixed:  # 3 is 07's retrievers, 4 section 1's old family, 6 section 2's
            number = f"{fixed[0]}" if len(fixed) == 1 else f"one number ({fixed[0]} to {fixed[-1]})"
            slips = [
                f"you divided by {number} in every family, a number written in: m is counted "
                "from the family you are given, len(family) (the check's have 1 to 12 lines)"
            ]
        if not slips and names is not None and sorted(names) == sorted(expected):
            slips = ["the right names in another order: keep the family's order, do not sort them"]
        raise NotYet(
            f"a family of {m}, {short(family, 120)}: expected {expected}, got {short(got)}: "
            + (
                "; or ".join(slips)
                or "not the lines this notebook prints better: check the level a family of "
                "m is read at (section 1) and each condition `compare` asks of a line shown "
                "ahead, in the family's order"
            )
        )
    return len(cases)


def _always(fn: Callable, why: str) -> bool:
    """Whether `fn` makes the slip `why` on every family where the slip changes the answer."""
    for family in _families():
        slipped = _reading_slips(family)[why]
        try:
            got = list(fn([tuple(c) for c in family]))
        except Exception:  # noqa: BLE001 - a learner's function may raise anything
            return False
        if got != slipped:
            return False
    return True


def sign_p(won: int, lost: int) -> float:
    """The two-sided sign test written out (for the tests' second correct form)."""
    n = won + lost
    return (
        min(1.0, 2 * sum(math.comb(n, i) for i in range(min(won, lost) + 1)) / 2**n) if n else 1.0
    )


CHECKS_READING: dict[str, tuple[str, Callable[[Callable], Any]]] = {
    "07c.2": ("cannot_answer(chunks, facts) -> sorted list of question ids", check_cannot_answer),
    "07b.1": ("standing(family) -> names of the comparisons shown ahead", check_standing),
}
