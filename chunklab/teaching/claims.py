"""Conclusions as computed conditions: `claim` states one and prints whether it holds, `compare`
scores two strategies on the same questions, paired.

Why a notebook needs this: a sentence such as "small-to-big beats the parents" is only as good as
the cell that could have refuted it. Written as `claim("s2b-beats-parents", holds, evidence)`, the
conclusion is re-computed on every run and printed with its evidence and its verdict; nbval
compares that printed line with the stored one, so CI fails the day a change flips it. A recap
bullet cites the claim by its name (`tests/test_recap_claims.py` checks every citation), so the
recap can only say what the notebook shows.

Why paired: every strategy in the series is scored on the same questions, so the question that
is hard for one is hard for the other. Comparing two means throws that away; counting the
questions each strategy won, lost and tied, and bounding the mean difference over the *same*
resampled questions (`evaluation.bootstrap.paired`), does not.

When is a difference shown? Two tests must agree. The paired interval must leave out 0, and the
exact sign test must reject "either strategy was as likely to win each decisive question" at the
same level: under that null the wins among the won + lost questions are a fair coin's heads, so
4 won and 0 lost has p = 2 * 0.5**4 = 0.125, not enough, and 6 to 0 (p = 0.031) is the fewest
that can be. The interval speaks about the size of the difference, the sign test about how many
questions carry it; a lead of a few large wins passes the first and fails the second.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from chunklab.evaluation.bootstrap import paired

NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def sign_test(won: int, lost: int) -> float:
    """Two-sided exact sign test: the chance, if each decisive question were a fair coin, of a
    split at least as uneven as `won` to `lost` (ties carry no sign and are left out)."""
    if won < 0 or lost < 0:
        raise ValueError(f"counts must not be negative, not {won} and {lost}")
    decisive = won + lost
    if decisive == 0:
        return 1.0
    tail = sum(math.comb(decisive, k) for k in range(min(won, lost) + 1)) / 2**decisive
    return min(1.0, 2 * tail)


def fewest_decisive(questions: int, alpha: float) -> int:
    """The fewest decisive questions, all one way, whose sign test falls under `alpha`: computed
    before any result, it says which comparisons of a family could show a difference at all."""
    return next(n for n in range(1, questions + 1) if sign_test(n, 0) < alpha)


def signed(value: float) -> str:
    """A bound or difference with its sign, one decimal, but never a rounded 0: a bound of +0.03
    printed as "+0.0" would hide which side of 0 it lies on."""
    if value == 0:
        return "0"
    if abs(value) < 0.05:
        return f"{value:+.2g}"
    return f"{value:+.1f}"


def p_text(p: float) -> str:
    """A p-value in three significant digits, or "< 0.001"."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3g}"


@dataclass(frozen=True)
class Claim:
    """A conclusion, its evidence, and whether it held on this run."""

    name: str
    statement: str
    holds: bool
    evidence: str

    def line(self) -> str:
        """The printed line: the verdict first, so a flipped claim is the first word that moves."""
        verdict = "HOLDS" if self.holds else "DOES NOT HOLD"
        return f"claim {self.name}: {verdict}. {self.statement} ({self.evidence})"


def claim(name: str, statement: str, holds: bool | np.bool_, evidence: str) -> Claim:
    """State a conclusion as a condition the cell computed, print it with its evidence, return it.

    `name` is what a recap cites (lower-case words joined by '-'); `holds` must be the computed
    condition itself, never a literal the author typed: a claim that cannot flip proves nothing.
    """
    if not NAME.fullmatch(name):
        raise ValueError(f"claim name {name!r}: use lower-case words joined by '-'")
    if not isinstance(holds, (bool, np.bool_)):
        raise TypeError(f"claim {name}: holds must be a bool, not {type(holds).__name__}")
    made = Claim(name=name, statement=statement, holds=bool(holds), evidence=evidence)
    print(made.line())
    return made


# Why a verdict is "no difference shown" when one of its two tests alone would have given one;
# `compare` prints the note after the verdict, e.g. "no difference shown (the sign test rejects,
# the interval reaches 0)".
OPPOSITE_WAYS = "the sign test and the interval point opposite ways"
COUNTS_ONLY = "the sign test rejects, the interval reaches 0"
INTERVAL_ONLY = "the interval excludes 0, the sign test does not reject"


def bare_verdict(text: str) -> str:
    """The verdict without the note `compare` prints after it: what a learner pastes from a
    printed line reads as the verdict itself."""
    for note in (OPPOSITE_WAYS, COUNTS_ONLY, INTERVAL_ONLY):
        if text.endswith(f" ({note})"):
            return text[: -len(note) - 3]
    return text


@dataclass(frozen=True)
class Comparison:
    """Two strategies scored on the same questions: the counts and the paired interval."""

    a: str
    b: str
    won: int  # questions where a scored higher than b
    lost: int  # questions where b scored higher
    tied: int
    mean_difference: float  # mean(a) - mean(b), x scale
    low: float  # 95% paired bootstrap interval of that difference
    high: float
    scale: float
    level: float = 95.0  # the interval's confidence, in percent
    # The mean size of a win and of a loss (x scale; 0 when there is none): a cut can win more
    # questions than it loses, each by less, and leave the mean where it was.
    mean_win: float = 0.0
    mean_loss: float = 0.0

    @property
    def decisive(self) -> int:
        """Questions on which the two differ at all."""
        return self.won + self.lost

    @property
    def p_value(self) -> float:
        """The exact two-sided sign test of won against lost (`sign_test`)."""
        return sign_test(self.won, self.lost)

    @property
    def alpha(self) -> float:
        """The sign test's threshold at the interval's level: 0.05 at 95%."""
        return (100.0 - self.level) / 100.0

    @property
    def better(self) -> bool:
        """a beats b: its interval lies above 0 and the sign test rejects a fair coin."""
        return self.low > 0 and self.won > self.lost and self.p_value < self.alpha

    @property
    def worse(self) -> bool:
        """b beats a, by the same two tests."""
        return self.high < 0 and self.lost > self.won and self.p_value < self.alpha

    @property
    def verdict(self) -> str:
        """'better', 'worse' or 'no difference shown': what the questions let one say."""
        if self.better:
            return "better"
        if self.worse:
            return "worse"
        return "no difference shown"

    @property
    def withheld_by(self) -> str:
        """Why the verdict is 'no difference shown' when one of its two tests alone would have
        given one: a reader who sees 311 lost to 134 (p < 0.001) beside "no difference shown"
        needs to know the interval reached 0. Empty when a verdict was given or neither test
        rejects."""
        if self.verdict != "no difference shown":
            return ""
        counts_reject = self.p_value < self.alpha and self.won != self.lost
        interval_excludes_zero = self.low > 0 or self.high < 0
        if counts_reject and interval_excludes_zero:
            return OPPOSITE_WAYS
        if counts_reject:
            return COUNTS_ONLY
        if interval_excludes_zero:
            return INTERVAL_ONLY
        return ""

    def verdict_text(self) -> str:
        """The verdict, with the test that withheld it when only one did."""
        return f"{self.verdict} ({self.withheld_by})" if self.withheld_by else self.verdict

    def brief(self) -> str:
        """The evidence a claim cites, in a few words: "7 won, 0 lost, p = 0.0156, [+4.7,
        +27.9]: better"."""
        return (
            f"{self.won} won, {self.lost} lost, {p_text(self.p_value)}, "
            f"[{signed(self.low)}, {signed(self.high)}]: {self.verdict_text()}"
        )

    def line(self) -> str:
        """One line: counts, mean difference, interval and verdict."""
        unit = " points" if self.scale == 100.0 else ""
        return (
            f"{self.a} vs {self.b} on {self.won + self.lost + self.tied} questions: "
            f"won {self.won}, lost {self.lost}, tied {self.tied} "
            f"(sign test {p_text(self.p_value)}); "
            f"mean difference {signed(self.mean_difference)}{unit}, "
            f"{self.level:.4g}% paired interval [{signed(self.low)}, {signed(self.high)}]: "
            f"{self.verdict_text()}"
        )


def compare(
    a_scores: Sequence[float] | np.ndarray,
    b_scores: Sequence[float] | np.ndarray,
    a: str = "a",
    b: str = "b",
    scale: float = 100.0,
    show: bool = True,
    level: float = 95.0,
) -> Comparison:
    """Compare strategy `a` with `b` question by question (the i-th score of each is the same
    question); print the line unless `show` is False, and return the `Comparison`.

    Scores are per question (1/0 for found, or a fraction); `scale` = 100 reports the mean
    difference and interval in points, as the series' tables do. `level` is the interval's
    confidence (raise it to correct for many comparisons drawn on the same questions).
    """
    a_values = np.asarray(a_scores, dtype=np.float64)
    b_values = np.asarray(b_scores, dtype=np.float64)
    if a_values.shape != b_values.shape or a_values.ndim != 1 or a_values.size == 0:
        raise ValueError(
            f"compare needs one score per question for both, not {a_values.shape} and "
            f"{b_values.shape}"
        )
    low, high = paired(a_values, b_values, scale=scale, level=level)
    differences = (a_values - b_values) * scale
    made = Comparison(
        a=a,
        b=b,
        won=int((a_values > b_values).sum()),
        lost=int((a_values < b_values).sum()),
        tied=int((a_values == b_values).sum()),
        mean_difference=float((a_values - b_values).mean() * scale),
        low=low,
        high=high,
        scale=scale,
        level=level,
        mean_win=float(differences[differences > 0].mean()) if (differences > 0).any() else 0.0,
        mean_loss=float(differences[differences < 0].mean()) if (differences < 0).any() else 0.0,
    )
    if show:
        print(made.line())
    return made


# A recap bullet cites a claim as `claim: name` inside backticks, e.g. (`claim: parents-direct`).
CITATION = re.compile(r"`claim: ([a-z0-9]+(?:-[a-z0-9]+)*)`")
PRINTED = re.compile(r"^claim ([a-z0-9]+(?:-[a-z0-9]+)*): (HOLDS|DOES NOT HOLD)\.", re.MULTILINE)


def recap_bullets(markdown: str) -> list[str]:
    """The bullets of a '## Recap' cell: each '- ' line with its indented continuation lines."""
    bullets: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("- "):
            bullets.append(line[2:])
        elif bullets and line.startswith("  ") and line.strip():
            bullets[-1] += " " + line.strip()
        elif not line.strip() and bullets:
            continue
        elif bullets:
            break
    return bullets


def printed_claims(outputs_text: str) -> dict[str, bool]:
    """Claim name -> whether it held, from a notebook's stored output text."""
    return {name: verdict == "HOLDS" for name, verdict in PRINTED.findall(outputs_text)}


def uncited_recap(recap: str, outputs_text: str) -> list[str]:
    """What is wrong with a recap against the notebook's stored outputs, one line a problem: a
    bullet that cites no claim, a citation of a claim the notebook never printed, or of one that
    did not hold. Empty when every bullet stands on a printed, holding claim."""
    shown = printed_claims(outputs_text)
    problems: list[str] = []
    for bullet in recap_bullets(recap):
        cited = CITATION.findall(bullet)
        opening = bullet[:60] + ("…" if len(bullet) > 60 else "")
        if not cited:
            problems.append(f"cites no claim: {opening}")
        for name in cited:
            if name not in shown:
                problems.append(f"cites claim {name}, which no output prints: {opening}")
            elif not shown[name]:
                problems.append(f"cites claim {name}, which does not hold: {opening}")
    return problems


def outputs_text(notebook) -> str:
    """Every stored text output of a notebook (nbformat node), joined: where claims are printed."""
    texts: list[str] = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if output.get("output_type") == "stream":
                texts.append(output.get("text", ""))
            elif "data" in output:
                texts.append(output["data"].get("text/plain", ""))
    return "\n".join(texts)


def recap_problems(notebook) -> list[str]:
    """`uncited_recap` for a notebook: its '## Recap' cell against its own stored outputs."""
    recaps = [
        cell.source
        for cell in notebook.cells
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith("## Recap")
    ]
    if len(recaps) != 1:
        return [f"expected one '## Recap' cell, found {len(recaps)}"]
    return uncited_recap(recaps[0], outputs_text(notebook))
