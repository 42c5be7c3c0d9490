"""Every notebook says where it sits in the series, and the numbers agree with the series itself.

Notebook 01 said "Step 1 of 8" above a list of seven steps (issue 27): a count written by hand
goes stale when a notebook is added. Here the count is the number of notebooks on disk.
"""

import re

import nbformat
import pytest
from conftest import NOTEBOOKS, STEPS, prefix


def first_cell(path):
    return nbformat.read(path, as_version=4).cells[0].source


@pytest.mark.parametrize("path", STEPS, ids=lambda p: p.stem)
def test_each_notebook_says_step_n_of_all(path):
    found = re.search(r"Step \*\*(\d+) of (\d+)\*\*", first_cell(path))
    assert found, f"{path.name}: no 'Step **N of M**' in its first cell"
    assert (int(found[1]), int(found[2])) == (int(path.name[:2]), len(STEPS))


def test_the_first_notebook_lists_every_step_once():
    steps = re.findall(r"^(\d+)\. ", first_cell(STEPS[0]), flags=re.M)
    assert [int(s) for s in steps] == list(range(1, len(STEPS) + 1))


COMPANIONS = [path for path in NOTEBOOKS if path not in STEPS]


@pytest.mark.parametrize("path", COMPANIONS, ids=lambda p: p.stem)
def test_each_companion_names_its_step_and_the_step_links_to_it(path):
    step = prefix(path)[:2]
    found = re.search(r"Companion to step \*\*(\d+)\*\*", first_cell(path))
    assert found, f"{path.name}: no 'Companion to step **N**' in its first cell"
    assert int(found[1]) == int(step)
    (parent,) = [p for p in STEPS if prefix(p) == step]
    assert f"]({path.name})" in nbformat.read(parent, as_version=4).cells[0].source + "".join(
        c.source for c in nbformat.read(parent, as_version=4).cells
    ), f"{parent.name} never links to its companion {path.name}"
