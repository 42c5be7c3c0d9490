"""Rules stated as claims over paired comparisons, with every comparison kept as a table row.

Why: a rule such as the article's "start with structural plus repack" rests on several paired
comparisons (one per retriever, and the baselines a skeptic runs against it). Printed as one
claim, the rule says whether it held; kept as rows of one table, each comparison behind it can be
read: which pair, won, lost, the interval and the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pandas as pd

from chunklab.teaching.claims import Claim, Comparison, claim, compare, signed
from chunklab.teaching.figures import plot_comparisons
from chunklab.teaching.report import decision_frame


class RuleBook:
    """Numbered rules, each a printed claim, and the comparisons behind them."""

    def __init__(self) -> None:
        self.rows: list[dict[str, object]] = []
        self.compared: list[Comparison] = []  # each row's comparison, its label led by the rule
        self.corrected: list[str] = []  # each row's verdict at 0.05 / the comparisons searched

    def rule(
        self,
        name: str,
        statement: str,
        comparisons: Sequence[Comparison],
        holds: bool,
        searched: Sequence[int] | None = None,
    ) -> Claim:
        """Print the rule as a claim (`statement` starts with its number, "3. ..."), with the count
        of its comparisons' corrected verdicts as evidence (read at the rule's own threshold), and
        keep each comparison as a row. `searched` gives, per comparison, how many comparisons its
        verdict was picked among (1 when it is not a pick): the row's corrected verdict asks its
        sign test for p < 0.05 / that number. Without `searched`, each row is read at the level
        its comparison was made at (`compare(..., level=100 - 5 / m)` for a pick among m), so the
        printed line, the row and the bar's colour give one verdict."""
        number = statement.split(".")[0]
        among = list(searched) if searched is not None else [1] * len(comparisons)
        corrected = [
            c.verdict if c.p_value < c.alpha / n else "no difference shown"
            for c, n in zip(comparisons, among, strict=True)
        ]
        for c, n, verdict in zip(comparisons, among, corrected, strict=True):
            row: dict[str, object] = {
                "rule": number,
                "a": c.a,
                "b": c.b,
                "won": c.won,
                "lost": c.lost,
                "p": round(c.p_value, 3),
                "level": f"{c.level:.4g}%",
                "interval": f"[{signed(c.low)}, {signed(c.high)}]",
                "verdict": c.verdict,
            }
            if searched is not None:
                row |= {"searched": n, "corrected": verdict}
            self.rows.append(row)
        self.corrected.extend(corrected)
        self.compared.extend(replace(c, a=f"{number}. {c.a}") for c in comparisons)
        # each row counted as the rule reads it: at 0.05 / the comparisons it was picked among
        return claim(
            name,
            statement,
            holds=holds,
            evidence=f"rule {number} below, each row at "
            + ("0.05 / its searched: " if searched is not None else "its printed level: ")
            + f"{corrected.count('better')} better, {corrected.count('worse')} worse, "
            f"{corrected.count('no difference shown')} no difference shown",
        )

    def frame(self) -> pd.DataFrame:
        """Every comparison behind every rule, one row each, indexed by the rule's number."""
        return pd.DataFrame(self.rows).set_index("rule")

    def figure(self, title: str):
        """The same comparisons as a forest plot, one bar per row led by its rule's number: a bar
        that crosses 0 is "no difference shown", read faster than a table of intervals. Each bar is
        coloured by its corrected verdict, so a pick among several is not painted as shown."""
        return plot_comparisons(
            self.compared,
            f"{title}\ncoloured by each row's verdict at 0.05 / the comparisons it was picked "
            "among",
            verdicts=self.corrected,
        )


def decision_table(evidence: dict[str, str], decided: dict[str, str]) -> pd.DataFrame:
    """The article's decision table by kind of document, the rows this run measures, each with
    its evidence, printed three lines a row. Why: a row's strategy is only as good as the
    questions behind it, so only rows with evidence are printed in full; the article's other rows
    are named on one line as not measured, never dressed as a result. `decided` replaces a row's
    strategy where its evidence decides nothing. The unit and what still breaks are the article's
    words, marked as such: no output here measures them."""
    decisions = decision_frame()
    for kind, strategy in decided.items():
        decisions.loc[kind, "strategy"] = strategy
    unmeasured = [kind for kind in decisions.index if kind not in evidence]
    decisions = decisions.drop(index=unmeasured)
    decisions["evidence"] = [evidence[kind] for kind in decisions.index]
    for kind, row in decisions.iterrows():
        print(
            f"{kind}: {row['strategy']}\n   the article's, not measured: unit: {row['unit']}; "
            f"still breaks: {row['still breaks']}\n   evidence: {row['evidence']}"
        )
    if unmeasured:
        print("the article's rows not measured here, so not printed:", "; ".join(unmeasured))
    return decisions


def won_lost(labelled: dict[str, Comparison]) -> str:
    """One family's comparisons as ``label won-lost (p ...)``, joined: a claim's evidence."""
    return ", ".join(
        f"{label} {c.won}-{c.lost} (p {c.p_value:.3g})" for label, c in labelled.items()
    )


def row_evidence(
    prose: pd.DataFrame, headed: Sequence[Comparison], orphans: pd.Series, on_tables: Comparison
) -> dict[str, str]:
    """The evidence line of each measured row of the decision table: how many cuts answer every
    question of the prose document (`prose`: question x cut), the comparisons on the documents
    with headings, and the orphans each cut leaves with the table questions' comparison. Why a
    helper: the strings are bookkeeping; the notebook keeps the comparisons in view."""
    none = ", ".join(sorted(orphans.index[orphans == 0]))
    return {
        "running prose, no tables": f"topics: {(prose.min() == 1).sum()} of {prose.shape[1]} cuts "
        f"answer all {len(prose)} questions",
        "manual, standard, contract": " ".join(c.line() + "." for c in headed),
        "documents with tables": f"orphans: {none} none; structural+ {orphans['structural+']}. "
        f"The table questions: {on_tables.line()}",
    }


def paired_family(
    pairs: Sequence[tuple[str, str, Sequence[float], Sequence[float]]], level: float
) -> list[Comparison]:
    """Every pair ``(a label, b label, a's scores, b's scores)`` of one family compared at the
    family's `level` (``100 - 5 / m``), in order, nothing printed: the rule that reads them prints
    its claim, and `RuleBook.frame` the table of all rows. Why a helper: a rule's family is many
    lines of `compare` that differ only in their labels; the notebook keeps the list in view."""
    return [compare(a_s, b_s, a=a, b=b, show=False, level=level) for a, b, a_s, b_s in pairs]


def family_on(
    tables: dict[str, pd.DataFrame],
    subsets: dict[str, Sequence[str]],
    family: Sequence[tuple[str, str, str, str]],
    level: float,
) -> list[Comparison]:
    """Each line ``(a, b, retriever, subset)`` of one family compared on its own questions at the
    family's `level`, in order, nothing printed. `tables` maps a retriever to its question x cut
    scores and `subsets` a name to question ids. Why a helper: the decision table's rows each read
    a different subset of questions, and slicing them is bookkeeping; the notebook keeps the
    family's list, and so its m, in view before any result."""
    return paired_family(
        [
            (f"{a} ({r})", f"{b} ({r})", *tables[r].loc[list(subsets[q]), [a, b]].T.values)
            for a, b, r, q in family
        ],
        level,
    )


def question_subsets(questions: Sequence, documents: dict, headed: Sequence[str]) -> dict:
    """The decision table's two subsets of question ids: ``headed``, the questions of the
    documents named in `headed`, and ``tables``, those whose gold evidence holds a table line (a
    ``|``). Why a helper: finding them is slicing, not the idea; the notebook prints them."""
    return {
        "headed": sorted(q.id for q in questions if q.document in headed),
        "tables": [
            q.id
            for q in questions
            if any("|" in documents[q.document].text[g.start : g.end] for g in q.gold)
        ],
    }


def orphans_against(summary: pd.DataFrame, a: str, b: str) -> str:
    """``orphans X against Y, summed over ... chunks``: two cuts' orphan rows (a table row without
    its header) over all five documents, with BM25's rows of `summary`. Why a helper: the claim's
    evidence string is bookkeeping."""
    bm25 = summary.xs("bm25", level="retriever")
    return (
        f"orphans {bm25.loc[a, 'orphans']} against {bm25.loc[b, 'orphans']}, summed over the five "
        f"documents' chunks ({a} {int(bm25.loc[a, 'chunks'])}, {b} {int(bm25.loc[b, 'chunks'])})"
    )
