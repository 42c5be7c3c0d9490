"""`scripts/pool.py`, the plugin that runs the unit tests and the notebooks in one pool of workers.

Run for real: a pytest of its own with two xdist workers, on a crafted folder holding a group of
tests that record which worker ran them and a notebook whose cells need each other's variables.
Without the plugin the group's tests are spread over both workers (pytest 9.2 drops the group
name pytest-xdist 3.8 writes into the node id) and the notebook's cells too, where a cell run in
a kernel that never saw the previous one fails. The tests of one exercise (named after it, or
given it as their `exercise` parameter) form a group of their own, unmarked.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

GROUPED_TESTS = """
import os
import time
import pytest

@pytest.mark.xdist_group("together")
@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    with open("workers.txt", "a") as f:
        f.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")

@pytest.mark.parametrize("n", range(6))
def test_alone(n):
    pass

def _one_exercise():  # long enough that both workers would take some, were they not one group
    time.sleep(0.3)
    with open("exercise.txt", "a") as f:
        f.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")

@pytest.mark.parametrize("n", range(4))
def test_09c_1_named_after_its_exercise(n):
    _one_exercise()

@pytest.mark.parametrize("exercise, n", [("09c.1", n) for n in range(4)])
def test_given_the_exercise(exercise, n):
    _one_exercise()
"""


def _notebook() -> dict:
    def code(number: int, source: str, output: str | None) -> dict:
        outputs = [{"name": "stdout", "output_type": "stream", "text": [output]}] if output else []
        return {
            "cell_type": "code",
            "execution_count": number,
            "metadata": {},
            "outputs": outputs,
            "source": [source],
        }

    cells = [code(1, "x = 1", None)]
    cells += [code(n, "x += 1\nprint(x)", f"{n}\n") for n in range(2, 8)]
    return {
        "cells": cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def test_a_group_an_exercise_and_a_notebook_each_run_whole_on_one_worker(tmp_path):
    (tmp_path / "test_grouped.py").write_text(GROUPED_TESTS, encoding="utf-8")
    (tmp_path / "counting.ipynb").write_text(json.dumps(_notebook()), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    env["CHUNKLAB_COLD_KERNELS"] = "1"  # one small notebook: a warm process would cost more
    env.pop("PYTEST_ADDOPTS", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += ["-p", "scripts.nbkernel", "-p", "scripts.pool", "--nbval", "--nbval-current-env"]
    command += ["-n", "2", "--dist", "loadgroup", "--no-loadscope-reorder"]
    command += ["counting.ipynb", "test_grouped.py"]
    run = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "27 passed" in run.stdout  # 7 cells, 6 grouped tests, 6 alone, 8 of one exercise
    for record, count in (("workers.txt", 6), ("exercise.txt", 8)):
        workers = (tmp_path / record).read_text(encoding="utf-8").split()
        assert len(workers) == count and len(set(workers)) == 1, (record, workers)
