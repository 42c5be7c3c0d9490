"""Notebooks a learner can follow (issue 29): none is over 40 cells, and every reference to a part
of a notebook leads somewhere.

02 had 63 cells over nine topics and 04 sent its reader to a "section 5" it did not have. A
learner who follows "see section 5", "cell 21", "see *From scratch* above" or a `#anchor` link and
finds nothing has lost the thread; this test finds those references before a learner does. A
section named with its owner ("the article's section 8", "its section 11", "the manual's
section 3") is someone else's section and is not checked here.
"""

import re
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest
from conftest import NOTEBOOKS

MAX_CELLS = 40

SECTION = re.compile(
    r"\b[Ss]ections?\s+(\d+(?:\.\d+)*(?:(?:,\s*|\s+and\s+|\s+or\s+)\d+(?:\.\d+)*)*)"
)
CELL = re.compile(r"\b[Cc]ells?\s+(\d+)\b")
NAMED = re.compile(r"\*([^*\n]{3,80})\*,?\s+(?:section\s+)?(above|below)\b")
ANCHOR = re.compile(r"\]\((?:([\w.-]+\.ipynb))?#([^)\s]+)\)")
# Words that make a section someone else's: the article's, the sketch's, its, the manual's...
OWNER = re.compile(
    r"\b(article|sketch|paper|post|manual|policy|document|its|their|readme|chroma|spec|"
    r"(?:notebook|companion)\s+\d+\w?|step\s+\d+|\d\d[a-z]?'s)\b",
    re.I,
)
CODE = re.compile(r"`[^`\n]*`")


def normal(text: str) -> str:
    """A heading or an anchor reduced to its letters and digits, lower case: GitHub's and
    Jupyter's anchor spellings of one heading (`#1.-The-cut`, `#1-the-cut`) meet here."""
    return re.sub(r"[\W_]+", "", unquote(text).lower())


def headings(nb) -> list[tuple[int, str]]:
    """(cell index, heading text) of every Markdown heading, in order."""
    out = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            out += [(i, m[1].strip()) for m in re.finditer(r"^#{1,6}\s+(.+)$", cell.source, re.M)]
    return out


def section_numbers(nb) -> set[str]:
    """'3' for a heading '## 3. What overlap fixes', '2.1' for '### 2.1 Lists'."""
    return {m[1] for _, text in headings(nb) if (m := re.match(r"(\d+(?:\.\d+)*)\.?\s", text))}


def owned(text: str, at: int) -> bool:
    """Whether the reference at `at` names a section of something else (the same clause says
    whose: "the article's section 8", "(its section 11)")."""
    clause = re.split(r"[.;:!?]\s|\n\n", text[max(0, at - 40) : at])[-1]
    return bool(OWNER.search(clause))


def broken_references(path: Path) -> list[str]:
    """Every reference in `path`'s Markdown that leads nowhere, as 'cell i: what'."""
    nb = nbformat.read(path, as_version=4)
    numbers, heads = section_numbers(nb), headings(nb)
    broken = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        text = CODE.sub("``", cell.source)
        for m in SECTION.finditer(text):
            if owned(text, m.start()):
                continue
            for number in re.findall(r"\d+(?:\.\d+)*", m[1]):
                if number not in numbers:
                    broken.append(f"cell {i}: 'section {number}': no heading numbered {number}")
        for m in CELL.finditer(text):
            if int(m[1]) > len(nb.cells):
                broken.append(f"cell {i}: 'cell {m[1]}': the notebook has {len(nb.cells)} cells")
        for m in NAMED.finditer(text):
            wanted, where = normal(m[1]), m[2]
            found = [
                j
                for j, head in heads
                if normal(head).startswith(wanted) and (j <= i if where == "above" else j > i)
            ]
            if not found:
                broken.append(f"cell {i}: '*{m[1]}* {where}': no such heading {where}")
        for m in ANCHOR.finditer(text):
            target = path if not m[1] else path.parent / m[1]
            if not target.exists():
                broken.append(f"cell {i}: link to {m[1]}: no such notebook")
                continue
            names = {normal(h) for _, h in headings(nbformat.read(target, as_version=4))}
            if normal(m[2]) not in names:
                broken.append(f"cell {i}: link #{m[2]}: no heading in {target.name} makes it")
    return broken


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_at_most_40_cells(path):
    cells = len(nbformat.read(path, as_version=4).cells)
    assert cells <= MAX_CELLS, (
        f"{path.name} has {cells} cells (at most {MAX_CELLS}): trim it, or move a deep dive into "
        f"a companion notebook ({path.name[:2]}b_<topic>.ipynb)"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_reference_resolves(path):
    assert broken_references(path) == []


def crafted(tmp_path: Path, cells: int, text: str) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            "# 99 · Crafted\n\n## 1. The cut\n\n### From scratch: a loop"
        ),
        nbformat.v4.new_markdown_cell(text),
    ] + [nbformat.v4.new_code_cell("1") for _ in range(cells - 2)]
    path = tmp_path / "99_crafted.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_notebook_over_40_cells_fails(tmp_path):
    with pytest.raises(AssertionError, match="41 cells"):
        test_at_most_40_cells(crafted(tmp_path, 41, "fine"))
    test_at_most_40_cells(crafted(tmp_path, 40, "fine"))


def test_references_to_nothing_are_found_and_real_ones_pass(tmp_path):
    text = (
        "As section 5 shows, and sections 1 and 7. Cell 21 printed it. See *Some heading* above. "
        "Jump [here](#nowhere) or [there](99_crafted.ipynb#also-nowhere).\n\n"
        "Section 1 holds it; see *From scratch* above, [the cut](#1.-The-cut), "
        "[again](#1-the-cut). The article's section 8, companion 05c, section 9 and "
        "(its section 11) are not ours; "
        "the manual's section 3 neither. `section 9` in code is not a reference. Cell 3."
    )
    found = broken_references(crafted(tmp_path, 6, text))
    assert found == [
        "cell 1: 'section 5': no heading numbered 5",
        "cell 1: 'section 7': no heading numbered 7",
        "cell 1: 'cell 21': the notebook has 6 cells",
        "cell 1: '*Some heading* above': no such heading above",
        "cell 1: link #nowhere: no heading in 99_crafted.ipynb makes it",
        "cell 1: link #also-nowhere: no heading in 99_crafted.ipynb makes it",
    ]
    assert broken_references(crafted(tmp_path, 6, "See *From scratch* below.")) == [
        "cell 1: '*From scratch* below': no such heading below"
    ]
