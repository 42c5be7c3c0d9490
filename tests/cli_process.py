"""`python -m chunklab ...` in a separate process, without paying Python's start-up each time.

Why: the unit tests run the command line about 190 times, as a user would, in a process of its
own (its exit code, its stdout and stderr, nothing shared with pytest). Each of those processes
spent about 0.65 CPU seconds importing numpy, pydantic, bm25s and chunklab before doing anything
(measured: median 0.67 s of CPU for a whole `chunk` run, 0.66 s for `import chunklab` alone),
over 120 CPU seconds of a `make test` that must fit in five minutes on two cores.

How: one warm process per test worker imports the command line once and then, for each run, forks
a child. The child is a real process of its own (its own pid, exit code, file descriptors 0, 1
and 2, working folder and environment) that runs `chunklab/__main__.py` as `python -m` does;
only the imports are already done. What start-up alone decides is not shared: a run whose
environment sets a PYTHON* variable (hash seed, path, I/O encoding) or the locale gets a fresh
interpreter, and so does any run when the warm process could not fork safely (a thread running).
`tests/test_cli_process.py` shows both ways give the same bytes and exit code.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The warm process: imports the command line, then reads one request per line and answers with
# the child's exit code. It never starts a thread, so forking it is safe.
SERVER = r"""
import io, json, os, runpy, sys, threading, traceback
import chunklab.cli  # the imports every run shares
control_in, control_out = sys.stdin.buffer, os.fdopen(os.dup(1), "w")
encodings = [(s.encoding, s.errors) for s in (sys.stdin, sys.stdout, sys.stderr)]
control_out.write(json.dumps({"ready": threading.active_count() == 1}) + "\n")
control_out.flush()
for line in control_in:
    request = json.loads(line)
    sys.stdout.flush(); sys.stderr.flush()
    pid = os.fork()
    if pid:
        control_out.write(json.dumps({"pid": pid}) + "\n")
        control_out.flush()
    else:
        code = 1
        try:
            os.chdir(request["cwd"])
            os.environ.clear(); os.environ.update(request["env"])
            for fd, path, mode in ((0, request["stdin"], os.O_RDONLY),
                                   (1, request["stdout"], os.O_WRONLY),
                                   (2, request["stderr"], os.O_WRONLY)):
                opened = os.open(path, mode); os.dup2(opened, fd); os.close(opened)
            streams = []
            for fd, (encoding, errors) in enumerate(encodings):
                raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
                buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
                streams.append(io.TextIOWrapper(buffered, encoding, errors, line_buffering=fd == 2))
            sys.stdin, sys.stdout, sys.stderr = streams
            sys.argv = ["-m", *request["args"]]
            runpy.run_module("chunklab", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
            if not isinstance(exit.code, (int, type(None))):
                print(exit.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except BaseException:
                    pass
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    control_out.write(json.dumps({"code": os.waitstatus_to_exitcode(status)}) + "\n")
    control_out.flush()
"""

# Variables the interpreter reads at start-up: a run that sets one needs an interpreter of its own.
STARTUP_VARIABLES = ("PYTHON", "LC_", "LANG")
TIMEOUT = 60  # seconds a run may take, as for a fresh interpreter


class WarmTimeout(subprocess.TimeoutExpired):
    """A forked run that did not answer within TIMEOUT. It fails the test that made it (the warm
    process is abandoned and the worker's next run starts a new one): a fork that hangs where a
    fresh interpreter would not is a difference this harness must show, not hide by re-running."""


class WarmProcess:
    """The forking process of one test worker, started on first use."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.process: subprocess.Popen | None = None
        self.usable = True
        self.pending = b""  # bytes read from the warm process past the last whole line

    def start(self) -> bool:
        if self.process is None and self.usable:
            self.process = subprocess.Popen(
                [sys.executable, "-c", SERVER],
                cwd=self.root,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
            )
            self.pending = b""
            ready = self.read_line(TIMEOUT)
            self.usable = bool(ready) and json.loads(ready).get("ready", False)
        return self.usable

    def read_line(self, timeout: float) -> bytes | None:
        """The warm process's next line, or None if it sent none within `timeout` seconds (or
        died). Why not `stdout.readline()` then `select`: a buffered reader may already hold the
        next line (a quick child's exit code arrives with its pid), and `select` on the pipe
        then waits for bytes that were read already. This reads the pipe itself and keeps what
        follows the line in `pending`."""
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return None
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line

    def send(self, request: dict) -> None:
        """One request line, written whole (an unbuffered pipe may take part of it per write)."""
        data = memoryview((json.dumps(request) + "\n").encode())
        while data:
            data = data[self.process.stdin.write(data) :]

    def run(self, args, env: dict, input: bytes | None) -> subprocess.CompletedProcess:
        with tempfile.TemporaryDirectory() as folder:
            paths = {name: Path(folder, name) for name in ("stdin", "stdout", "stderr")}
            paths["stdin"].write_bytes(input or b"")
            for name in ("stdout", "stderr"):
                paths[name].touch()
            request = {"args": list(args), "env": env, "cwd": str(self.root)}
            request.update({name: str(path) for name, path in paths.items()})
            self.send(request)
            started = self.read_line(TIMEOUT)
            child = json.loads(started).get("pid", 0) if started else 0
            answer = self.read_line(TIMEOUT) if child else None
            if child and answer is None and self.process.poll() is None:
                self.abandon(child)
                raise WarmTimeout(request["args"], TIMEOUT)
            if not child or not answer:
                self.process, self.usable = None, False
                raise RuntimeError("the warm chunklab process died")
            return subprocess.CompletedProcess(
                [sys.executable, "-m", "chunklab", *args],
                json.loads(answer)["code"],
                paths["stdout"].read_bytes(),
                paths["stderr"].read_bytes(),
            )

    def abandon(self, child: int) -> None:
        """A run that outlived TIMEOUT: kill its child (it may have exited already) and the warm
        process too, whose late answer could no longer be matched to its request (every later run
        of the worker would read the wrong line). The next run starts a new warm process."""
        for pid in (child, self.process.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait(timeout=10)
            self.process = None


def run_fresh(root: Path, args, env: dict, input: bytes | None) -> subprocess.CompletedProcess:
    """`python -m chunklab ARGS` in a new interpreter, start-up and all."""
    return subprocess.run(
        [sys.executable, "-m", "chunklab", *args],
        capture_output=True,
        cwd=root,
        env=env,
        input=input,
        timeout=TIMEOUT,
    )


def needs_fresh_interpreter(extra_env: dict) -> bool:
    return any(name.startswith(STARTUP_VARIABLES) for name in extra_env)
