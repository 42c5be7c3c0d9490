"""`run_cli`'s warm process (tests/cli_process.py) gives what a fresh `python -m chunklab` gives.

The unit tests run the command line through a child forked from a process that has already done
the imports. These checks hold it to a fresh interpreter, byte for byte, on the runs the tests
make: a document's chunks, a user's mistake (exit 2, one line), text on stdin, the help, a
search's JSON; and show that a run whose environment sets a start-up variable gets an interpreter
of its own.
"""

import os
import sqlite3

import pytest
from cli_process import needs_fresh_interpreter, run_fresh
from conftest import ROOT, WARM, run_cli

RUNS = {
    "chunks of a document": (("chunk", "data/manual.md", "--max-tokens", "120"), None),
    "a missing file": (("chunk", "data/no-such-file.md"), None),
    "a bad option": (("chunk", "data/manual.md", "--strategy", "nonsense"), None),
    "text on stdin": (("chunk", "-"), "# Leave\n\nTwenty days a year.\n".encode()),
    "the help": (("--help",), None),
    "no subcommand": ((), None),
}


@pytest.mark.parametrize("name", list(RUNS))
def test_a_forked_run_is_byte_for_byte_a_fresh_one(name):
    args, stdin = RUNS[name]
    assert WARM.start(), "the warm process should fork here (no thread running in it)"
    forked = WARM.run(args, dict(os.environ), stdin)
    fresh = run_fresh(ROOT, args, dict(os.environ), stdin)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )
    assert forked.stdout or forked.stderr  # each run says something: the comparison is not empty


def test_an_index_written_by_a_forked_run_searches_as_a_fresh_one(tmp_path):
    db = tmp_path / "i.sqlite"
    made = run_cli("index", "data/travel_policy.md", "--db", str(db))
    assert made.returncode == 0, made.stderr
    assert sqlite3.connect(db).execute("select count(*) from children").fetchone()[0] > 0
    query = ("search", str(db), "hotel cap in Tokyo", "--json")
    forked = run_cli(*query)
    fresh = run_fresh(ROOT, query, dict(os.environ), None)
    assert forked.returncode == fresh.returncode == 0
    assert forked.stdout == fresh.stdout


@pytest.mark.parametrize(
    "variables, fresh",
    [
        ({"PYTHONHASHSEED": "1"}, True),
        ({"PYTHONIOENCODING": "latin-1"}, True),
        ({"LC_ALL": "C"}, True),
        ({"LANG": "C.UTF-8"}, True),
        ({"CHUNKLAB_PDF_PASSWORD": "x"}, False),
        ({}, False),
    ],
)
def test_start_up_variables_get_an_interpreter_of_their_own(variables, fresh):
    assert needs_fresh_interpreter(variables) is fresh


def test_a_forked_run_that_hangs_is_abandoned_and_the_next_run_is_answered(monkeypatch):
    """A child that outlives the timeout must not leave the warm process's late answer to be read
    as the next run's: every later run of the worker would fail."""
    import cli_process

    args = ("chunk", "data/manual.md", "--max-tokens", "120")
    assert WARM.start()
    first = WARM.process
    real_read_line = cli_process.WarmProcess.read_line
    lines = []

    def no_answer_in_time(self, timeout):  # the pid line arrives, the exit code never does
        lines.append(timeout)
        return real_read_line(self, timeout) if len(lines) == 1 else None

    monkeypatch.setattr(cli_process.WarmProcess, "read_line", no_answer_in_time)
    with pytest.raises(cli_process.WarmTimeout):
        WARM.run(args, dict(os.environ), None)
    assert WARM.process is None and first.poll() is not None  # the stuck warm process is gone
    monkeypatch.undo()
    assert WARM.start() and WARM.process is not first
    again = WARM.run(args, dict(os.environ), None)
    fresh = run_fresh(ROOT, args, dict(os.environ), None)
    assert (again.returncode, again.stdout) == (fresh.returncode, fresh.stdout) and again.stdout


def test_two_lines_that_arrive_together_are_both_read():
    """The warm process's pid line and a quick child's exit code can reach the pipe in one write.
    The old harness read the first with a buffered `readline` (which took both) and then waited on
    `select` for the second, already read: a 60 s "hang" of a child long gone (CI's offline run,
    twice; about 1 run in 1,500 under load). `read_line` must return the second line at once."""
    import subprocess
    import sys

    import cli_process

    both = (
        "import sys, time\n"
        'sys.stdout.write(\'{"pid": 1}\\n{"code": 2}\\n\'); sys.stdout.flush()\n'
        "time.sleep(60)\n"
    )
    warm = cli_process.WarmProcess(ROOT)
    warm.process = subprocess.Popen([sys.executable, "-c", both], stdout=subprocess.PIPE, bufsize=0)
    try:
        assert warm.read_line(10) == b'{"pid": 1}'
        assert warm.read_line(10) == b'{"code": 2}'  # None if it waited on the pipe, as before
        assert warm.read_line(0.2) is None  # and a line that never comes is not invented
    finally:
        warm.process.kill()
        warm.process.wait()


def test_a_child_done_before_its_pid_is_read_is_answered(monkeypatch):
    """The same race through `run`: the request is sent, then the test waits until the child has
    surely finished before the harness reads anything, so the pid and the exit code are in the
    pipe together. The run must be answered, not abandoned as a hang."""
    import time

    import cli_process

    real_send = cli_process.WarmProcess.send

    def send_then_wait(self, request):
        real_send(self, request)
        time.sleep(2)  # `--help` exits in well under a second

    monkeypatch.setattr(cli_process, "TIMEOUT", 10)
    monkeypatch.setattr(cli_process.WarmProcess, "send", send_then_wait)
    assert WARM.start()
    forked = WARM.run(("--help",), dict(os.environ), None)
    assert forked.returncode == 0 and b"usage" in forked.stdout.lower()
