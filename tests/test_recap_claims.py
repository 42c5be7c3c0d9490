"""Every notebook's conclusions stand on claims it printed (chunklab.teaching.claims).

Two checks over the stored notebooks:
- each bullet of the '## Recap' cell cites a claim (`claim: name`) that the notebook's own outputs
  print as holding;
- each sentence of the prose that compares (beats, hurts, pays, no better, better than, ...) cites
  a claim the notebook printed, so no conclusion stands on a sentence alone.

nbval re-runs every notebook in strict mode, so a claim that flips changes a stored output and
fails CI; these checks make sure the prose is tied to those outputs. `tests/test_claims.py` shows
the checks failing on crafted notebooks.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from chunklab.teaching.claims import CITATION, outputs_text, printed_claims, recap_problems

NOTEBOOKS = sorted(Path(__file__).resolve().parents[1].glob("notebooks/*.ipynb"))

# Words that state a comparison's outcome. A sentence that uses one states a conclusion, unless it
# is a heading or a question (a prompt for the reader, answered by a cell).
COMPARING = re.compile(
    r"\b(?:beats?|beaten|hurts?|pays|pays off|outperforms?|no better|better than|worse than"
    r"|wins?|loses)\b",
    re.IGNORECASE,
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`*])")


def comparing_sentences(markdown: str) -> list[str]:
    """The sentences of a markdown cell that state a comparison's outcome (headings, questions,
    code spans and links' targets left out)."""
    found: list[str] = []
    prose = re.sub(r"```.*?```", " ", markdown, flags=re.DOTALL)
    for paragraph in re.split(r"\n\s*\n", prose):
        if paragraph.lstrip().startswith("#"):
            continue
        text = " ".join(line.strip() for line in paragraph.splitlines())
        for sentence in SENTENCE_END.split(text):
            plain = re.sub(r"`[^`]*`", "", sentence)
            plain = re.sub(r"\]\([^)]*\)", "]", plain)
            if COMPARING.search(plain) and not sentence.rstrip().endswith("?"):
                found.append(sentence.strip())
    return found


def uncited_comparisons(notebook) -> list[str]:
    """Comparing sentences that cite no claim, or cite one the notebook never printed."""
    shown = printed_claims(outputs_text(notebook))
    problems: list[str] = []
    for cell in notebook.cells:
        if cell.cell_type != "markdown" or cell.source.lstrip().startswith("## Recap"):
            continue
        if cell.source.lstrip().startswith("## References"):
            continue
        for sentence in comparing_sentences(cell.source):
            cited = CITATION.findall(sentence)
            opening = sentence[:70] + ("…" if len(sentence) > 70 else "")
            if not cited:
                problems.append(f"compares without citing a claim: {opening}")
            problems.extend(
                f"cites claim {name}, which no output prints: {opening}"
                for name in cited
                if name not in shown
            )
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_recap_bullet_cites_a_claim_its_notebook_printed(path):
    problems = recap_problems(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_comparing_sentence_cites_a_printed_claim(path):
    problems = uncited_comparisons(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def crafted(markdown: str, printed: str):
    notebook = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("pass")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=printed)]
    notebook.cells = [nbformat.v4.new_markdown_cell(markdown), cell]
    return notebook


def test_the_comparison_check_fails_on_a_crafted_notebook():
    held = "claim parents-direct: HOLDS. The parents alone find it (1.00 vs 0.75)\n"
    bare = crafted("Small-to-big beats the parents. It is cheap.", held)
    assert uncited_comparisons(bare) == [
        "compares without citing a claim: Small-to-big beats the parents."
    ]
    unknown = crafted("Small-to-big beats them (`claim: s2b-wins`).", held)
    assert uncited_comparisons(unknown) == [
        "cites claim s2b-wins, which no output prints: Small-to-big beats them (`claim: s2b-wins`)."
    ]
    cited = crafted("The parents beat it (`claim: parents-direct`). Does it pay? ## x", held)
    assert uncited_comparisons(cited) == []
    heading = crafted("## When small-to-big pays\n\nText.", held)
    assert uncited_comparisons(heading) == []


def unknown_citations(notebook) -> list[str]:
    """Every `claim: name` cited anywhere in the prose whose name no output prints, comparing
    sentence or not: a citation is a promise that the reader can find the claim above."""
    shown = printed_claims(outputs_text(notebook))
    return [
        f"cites claim {name}, which no output prints"
        for cell in notebook.cells
        if cell.cell_type == "markdown"
        for name in CITATION.findall(cell.source)
        if name not in shown
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_citation_names_a_printed_claim(path):
    problems = unknown_citations(nbformat.read(path, as_version=4))
    assert not problems, f"{path.name}:\n  " + "\n  ".join(problems)


def test_the_citation_check_fails_on_a_crafted_notebook():
    held = "claim parents-direct: HOLDS. The parents alone find it (1.00 vs 0.75)\n"
    # no comparing word, so only this check sees the misspelt name
    misspelt = crafted("Its ceiling is level with theirs (`claim: parents-directly`).", held)
    assert unknown_citations(misspelt) == ["cites claim parents-directly, which no output prints"]
    assert uncited_comparisons(misspelt) == []
    assert unknown_citations(crafted("As shown (`claim: parents-direct`).", held)) == []
