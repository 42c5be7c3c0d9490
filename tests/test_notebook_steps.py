"""Every notebook says where it sits in the series, and the numbers agree with the series itself.

Notebook 01 said "Step 1 of 8" above a list of seven steps (issue 27): a count written by hand
goes stale when a notebook is added. Here the count is the number of notebooks on disk.
"""

import re

import nbformat
import pytest
from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def first_cell(path):
    return nbformat.read(path, as_version=4).cells[0].source


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_notebook_says_step_n_of_all(path):
    found = re.search(r"Step \*\*(\d+) of (\d+)\*\*", first_cell(path))
    assert found, f"{path.name}: no 'Step **N of M**' in its first cell"
    assert (int(found[1]), int(found[2])) == (int(path.name[:2]), len(NOTEBOOKS))


def test_the_first_notebook_lists_every_step_once():
    steps = re.findall(r"^(\d+)\. ", first_cell(NOTEBOOKS[0]), flags=re.M)
    assert [int(s) for s in steps] == list(range(1, len(NOTEBOOKS) + 1))
