"""The conclusions of the code-search experiment, each a condition on paired comparisons.

The companion on the tree's peers draws its paired comparisons of the syntax-tree cut against
other cuts as one family, listed before any is drawn, each at the level corrected for their
number, and states its conclusions on the frameworks' code splitters as claims over them. Those
conditions live here, in one function, so the notebook states them in one line and a reader can
check every condition in one place. A
*table* maps ``(other cut, retriever)`` to the `Comparison` of chunklab's cut against that cut;
``drawn`` maps ``(measure, other cut, retriever)`` to every comparison of the family.

`claim_conditions` reads each claim's ``holds=`` expression back from this module's source, so
the notebook can print the condition that could have failed beside the verdict it gave;
`verdict_table` lays every comparison drawn out as one small table, won/lost and its verdict.

Also here: words, cl100k tokens and MiniLM word pieces per 200 characters of a text, as one table
(the notebook states its claim on it in the cell).
"""

from __future__ import annotations

import ast
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence

import pandas as pd

from chunklab.teaching.claims import Claim, Comparison, claim
from chunklab.tokens.counters import cl100k

Table = Mapping[tuple[str, str], Comparison]
Drawn = Mapping[tuple[str, str, str], Comparison]


def verdicts(table: Table, others: Sequence[str], retriever: str) -> str:
    """Each comparison's verdict and its won/lost, for a claim's evidence."""
    return ", ".join(
        f"{o}: {table[o, retriever].verdict} ({table[o, retriever].won}/{table[o, retriever].lost})"
        for o in others
    )


def per_200_characters(texts: Mapping[str, str], pieces: Callable[[str], int]) -> pd.DataFrame:
    """Words (runs of non-blank characters), cl100k tokens and MiniLM word pieces (``pieces``:
    a text's count, markers left out) per 200 characters of each text, one row per text."""
    return pd.DataFrame(
        {
            label: {
                "words": 200 * len(text.split()) / len(text),
                "cl100k tokens": 200 * cl100k(text) / len(text),
                "MiniLM word pieces": 200 * pieces(text) / len(text),
            }
            for label, text in texts.items()
        }
    ).T.round(1)


def against_tree_peers(
    versus: Table, versus_fit: Table, broken: Mapping[str, int], retrievers: Sequence[str]
) -> list[Claim]:
    """The tree against cuts that already know where a definition starts (LangChain's
    separators, LlamaIndex's and Chonkie's tree-sitter cuts) and against itself without its
    breadcrumb: none told apart. ``broken``: definitions that fit yet are cut, per cut."""
    langchain = [versus["LangChain from_language", r] for r in retrievers]
    llamaindex = [t["LlamaIndex CodeSplitter", r] for t in (versus, versus_fit) for r in retrievers]
    chonkie = [t["Chonkie CodeChunker", r] for t in (versus, versus_fit) for r in retrievers]
    no_crumb = "chunklab code, no breadcrumb"

    def none_shown(comparisons: Sequence[Comparison]) -> bool:
        return all(c.verdict == "no difference shown" for c in comparisons)

    return [
        claim(
            "langchain-not-told-apart",
            "against LangChain's from_language, no difference is shown with either retriever; "
            "the intervals are wide",
            holds=none_shown(langchain),
            evidence="; ".join(
                f"{r}: {c.won}/{c.lost}, [{c.low:+.1f}, {c.high:+.1f}], "
                f"{c.high - c.low:.1f} points wide"
                for r, c in zip(retrievers, langchain, strict=True)
            ),
        ),
        claim(
            "tree-vs-llamaindex",
            "against LlamaIndex's CodeSplitter no difference is shown with either retriever, on "
            "all questions or on the functions that fit the budget",
            holds=none_shown(llamaindex),
            evidence="all: "
            + "; ".join(
                verdicts(versus, ["LlamaIndex CodeSplitter"], r) + f" with {r}" for r in retrievers
            )
            + "; fitting: "
            + "; ".join(
                verdicts(versus_fit, ["LlamaIndex CodeSplitter"], r) + f" with {r}"
                for r in retrievers
            ),
        ),
        claim(
            "breadcrumb-no-difference",
            "the breadcrumb itself makes no difference shown, with either retriever",
            holds=none_shown([versus[no_crumb, r] for r in retrievers]),
            evidence="; ".join(verdicts(versus, [no_crumb], r) + f" with {r}" for r in retrievers),
        ),
        claim(
            "chonkie-not-told-apart",
            "against Chonkie's CodeChunker, also on tree-sitter, no difference is shown with "
            "either retriever, on all questions and on the functions that fit; neither cuts a "
            "definition that fits",
            holds=none_shown(chonkie)
            and broken["Chonkie CodeChunker"] == 0 == broken["chunklab code"],
            evidence="; ".join(
                f"{c.a}: {c.won}/{c.lost}, [{c.low:+.1f}, {c.high:+.1f}]" for c in chonkie
            ),
        ),
    ]


def claim_conditions(names: Sequence[str]) -> dict[str, str]:
    """Each named claim's condition, as written in this module: the ``holds=`` argument of its
    ``claim(...)`` call, read from the source, so what is printed is what was tested."""
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(inspect.getsource(sys.modules[__name__]))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "claim" and node.args:
            name = node.args[0]
            holds = next((k.value for k in node.keywords if k.arg == "holds"), None)
            label = name.value if isinstance(name, ast.Constant) else None
            if isinstance(label, str) and label in names and holds is not None:
                found[label] = " ".join(ast.unparse(holds).split())
    return {n: found[n] for n in names if n in found}


def verdict_table(drawn: Drawn) -> pd.DataFrame:
    """Every comparison drawn, one row per measure and other cut, one column per retriever:
    won/lost and the verdict at the level it was drawn ("none": no difference shown; "-": not
    drawn)."""

    def cell(key: tuple[str, str, str]) -> str:
        c = drawn[key]
        return f"{c.won}/{c.lost}: {c.verdict.replace('no difference shown', 'none')}"

    rows: dict[tuple[str, str], dict[str, str]] = {}
    for measure, other, r in drawn:
        rows.setdefault((measure, other), {})[r] = cell((measure, other, r))
    table = pd.DataFrame(rows).T.fillna("-")
    table.index.names = ["measure", "chunklab code against"]
    return table
