"""The unit tests and the notebooks in one pool of test workers (`make test`; `make unit` too).

A pytest plugin (`-p scripts.pool`), used with pytest-xdist's `--dist loadgroup`. Three jobs:

1. **Groups that hold.** `--dist loadgroup` sends the tests of one `xdist_group` to one worker
   (an exercise's checks share its solution, computed once there). pytest-xdist 3.8 marks a
   grouped test by appending "@group" to its node id, but pytest 9.2 builds node ids from a
   structured id, so the appended name is lost: nothing fails, the groups are handed out test by
   test (pytest-xdist issue #1386). `_keep_groups` writes the name where pytest 9.2 reads it.
2. **A notebook is one group.** Its cells share one kernel and run in order, so one worker runs
   the whole notebook (what `--dist loadfile` gave `make nbval`).
3. **An exercise is one group.** A test named after an exercise (`test_09c_1_...` for 09c.1) or
   given one as its `exercise` parameter runs on the worker that runs that exercise's other tests,
   unless it names a group itself: the checks of one exercise share what is costly to compute
   (the reference solution, MiniLM's readings of one page, a corpus scored once), kept in each
   process's caches. Spread over three workers, 09c.1's 25 tests took 31 s of worker time; on one,
   8 s.
4. **Longest first.** Items are handed out in three tiers, each in the order collected: the
   notebooks (in the order given on the command line, the slowest first), then the tests that
   run as a group or are marked `slow`, then every other test. With `--no-loadscope-reorder`,
   the many short tests come last and the workers finish together.

Why one pool rather than `make unit` then `make nbval`: each call ended with one worker idle
while the other finished its last long item (a 10 s test, a 15 s notebook).
"""

from __future__ import annotations

import re

import pytest

# "test_09c_1_names_..." -> "09c.1": the exercise a test is about, read from its name.
EXERCISE_IN_NAME = re.compile(r"test_(\d\d[a-z]?)_(\d+)_")
EXERCISE_ID = re.compile(r"\d\d[a-z]?\.\d+")


def _is_notebook_cell(item: pytest.Item) -> bool:
    return item.path.suffix == ".ipynb"


def _group_names(item: pytest.Item) -> list[str]:
    """The item's xdist groups, named as pytest-xdist names them."""
    names = set()
    for mark in item.iter_markers("xdist_group"):
        names.add(str(mark.args[0] if mark.args else mark.kwargs.get("name", "default")))
    return sorted(names)


def _exercise(item: pytest.Item) -> str | None:
    """The exercise a unit test checks, from its `exercise` parameter or its name; else None."""
    callspec = getattr(item, "callspec", None)
    given = callspec.params.get("exercise") if callspec is not None else None
    if isinstance(given, str) and EXERCISE_ID.fullmatch(given):
        return given
    named = EXERCISE_IN_NAME.match(getattr(item, "originalname", item.name))
    return f"{named.group(1)}.{named.group(2)}" if named else None


def _tier(item: pytest.Item) -> int:
    if _is_notebook_cell(item):
        return 0
    if _group_names(item) or item.get_closest_marker("slow"):
        return 1
    return 2


def _keep_groups(item: pytest.Item, names: list[str]) -> None:
    """Give a grouped item the node id pytest-xdist's loadgroup scheduler reads: "<id>@<group>".

    pytest >= 9.2 only (its `nodeid` reads the structured `_id`); on older pytest, pytest-xdist's
    own hook writes the same id into `_nodeid`, which `nodeid` read then.
    """
    structured = getattr(item, "_id", None)
    if structured is not None:
        item._id = type(structured).parse(f"{item.nodeid}@{'_'.join(names)}")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _is_notebook_cell(item):
            item.add_marker(pytest.mark.xdist_group(item.path.name))
        elif not _group_names(item) and (exercise := _exercise(item)) is not None:
            item.add_marker(pytest.mark.xdist_group(f"exercise-{exercise}"))
    items.sort(key=_tier)  # stable: each tier keeps its collected order
    if getattr(config.option, "loadgroup", False):  # set on the workers of a loadgroup run
        for item in items:
            names = _group_names(item)
            if names:
                _keep_groups(item, names)
