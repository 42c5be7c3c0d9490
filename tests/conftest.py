import gc
import os
import re
import socket
from pathlib import Path

import pytest
from cli_process import WarmProcess
from hypothesis import settings

# The property tests draw the same examples in every run (seeded from each test), so `make test`
# passes or fails the same way twice on the same code: CI cannot go red on a lucky draw. They
# still search: a change to a test or to what it draws gives new examples. To hunt for new
# failures, run them with fresh random draws: HYPOTHESIS_PROFILE=explore .venv/bin/python -m
# pytest tests (two bugs were found that way: a token count one off after a join that starts
# with white space, and a list's own text glued to its first item).
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
# Every notebook: the numbered steps (`02_structural.ipynb`) and their companions, a deep dive
# that would push a step past 40 cells, named after the step with a letter (`02b_parser.ipynb`).
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]*_*.ipynb"))
WARM = WarmProcess(ROOT)  # this worker's forking process for `run_cli`, started on first use
STEPS = [path for path in NOTEBOOKS if re.match(r"\d\d_", path.name)]


def prefix(path: Path) -> str:
    """'02' for a step, '02b' for its companion: what its title, exercises and numbers are named."""
    return path.name.split("_")[0]


# The real documents (copied unchanged, see data/SOURCES.md): front matter, template tags, tables.
REAL_DOCUMENTS = [
    "18f-leave.md",
    "18f-work-schedules.md",
    "cloudgov-space-egress.md",
    "gdsway-managing-sensitive-information.md",
    "pagerduty-post-mortem-template.md",
]


@pytest.fixture
def manual():
    from chunklab import load_document

    return load_document("manual")


def run_cli(*args: str, env: dict | None = None, input: bytes | None = None):
    """Run `python -m chunklab ...` as a user would, in a separate process (forked from a warm
    one that has done the imports, unless start-up matters: tests/cli_process.py says why)."""
    import os

    from cli_process import needs_fresh_interpreter, run_fresh

    extra = env or {}
    environment = {**os.environ, **extra}
    if needs_fresh_interpreter(extra) or not WARM.start():
        return run_fresh(ROOT, args, environment, input)
    return WARM.run(args, environment, input)  # a run past the timeout fails, naming its command


def loopback_works() -> bool:
    """CI's second run cuts the network with no interface up, loopback included: nothing that
    talks TCP on one machine (a `distributed` cluster, a local HTTP server) can start there."""
    try:
        with (
            socket.create_server(("127.0.0.1", 0)) as server,
            socket.create_connection(server.getsockname(), timeout=2),
        ):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def frozen_heap():
    """For the CPU-timed growth checks: every object alive before them (the modules the whole test
    session imported, about 440,000 objects) moved out of the cyclic collector's sight with
    gc.freeze(). Each measurement starts with gc.collect() and then runs with the collector off;
    that collect scanned all of them every time (0.2 CPU s each, measured), so `pytest -m timed`
    took 102 CPU s, 74 with the heap frozen. What is measured is unchanged: the collector is off
    while a split is timed either way."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def pytest_sessionfinish(session, exitstatus):
    WARM.close()
