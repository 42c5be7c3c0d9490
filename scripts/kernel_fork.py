"""Notebook kernels forked from a warm process, for the notebooks `make test` re-checks.

Why: nbval starts a fresh kernel for each of the series' notebooks, and each kernel spends its
first second and a half of CPU importing what almost every notebook imports (IPython and ipykernel,
numpy, pandas, matplotlib, chunklab): measured on the 2-core machine, 0.55 CPU s for a kernel that
runs `pass`, 1.5-1.8 CPU s for one whose first cell imports those. Five such kernels in a row took
9.1 CPU s fresh and 4.8 forked, the warm process's own start included; nbval on all 46 notebooks
(three workers, a busy machine, one run each) took 266 CPU s with fresh kernels and 214 forked: 52
CPU seconds of a `make test` that must fit in five minutes on two cores.

How: one warm process per test worker imports those modules once (`PRELOADED`), loads the models and
encodings chunklab keeps once per process (`LOADED`), and then, for each kernel, forks a child. The
child is a real process of its own, as `python -m ipykernel_launcher` would be: its own session and
process group (interrupts reach it as they reach a fresh kernel), the notebook's folder as working
folder, the environment the kernel manager built, and `ipykernel_launcher` run as `__main__`. Only
the imports and those loads are done; no cell has run.

What a fork cannot give is not faked: a kernel whose environment differs from the warm process's in
a variable read at interpreter start-up (`STARTUP_VARIABLES`: hash seed, path, locale, thread
counts, matplotlib's backend) is started fresh, and so is every kernel when the warm process could
not fork safely (a second thread running). Nothing imported here may change a setting at import
time that a notebook would see (pandas' display options: `chunklab.teaching.report` sets them, so it
is not preloaded; matplotlib's inline backend hooks itself into IPython when imported, so only
matplotlib itself is). Stored outputs never come from here: `make notebooks`
(scripts/run_notebooks.py) runs every notebook in a fresh interpreter, and nbval then compares the
forked kernels' outputs with those, cell by cell, for every notebook: the check that both are one.
`CHUNKLAB_COLD_KERNELS=1` turns the forking off.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import json
import os
import runpy
import select
import signal
import subprocess
import sys
import threading
import warnings

INLINE_BACKEND = "module://matplotlib_inline.backend_inline"
PRELOADED = (
    "ipykernel.kernelapp",
    "numpy",
    "pandas",
    "matplotlib",
    "matplotlib.pyplot",
    "chunklab",
    "chunklab.teaching.claims",
    "chunklab.teaching.selfcheck",
    "chunklab.teaching.figures",
    "chunklab.retrieval.retrievers",
    "chunklab.retrieval.index",
    "chunklab.evaluation.experiment",
    "chunklab.evaluation.metrics",
    "chunklab.evaluation.chroma",
    "chunklab.embeddings.minilm",
    "chunklab.embeddings.stored",
)
# Loaded once for every kernel after the imports: each is chunklab's own once-per-process cache of a
# model or an encoding (WordLlama 0.5 CPU s, cl100k 0.16, MiniLM's weights 0.13), loading starts no
# thread, and a notebook's first call gets the same object it would have loaded itself.
LOADED = (
    ("chunklab.tokens.counters", "cl100k_encoding"),
    ("chunklab.tokens.wordpiece", "minilm_tokenizer"),
    ("chunklab.embeddings.transformer", "load_bert"),
    ("chunklab.embeddings.static", "wordllama_model"),
)
# Modules whose import changes what a notebook would see, so they must not be in the warm process.
NOT_PRELOADED = ("chunklab.teaching.report", "matplotlib_inline.backend_inline")
STARTUP_VARIABLES = ("PYTHON", "LC_", "LANG", "OPENBLAS_", "OMP_", "MKL_", "MPLBACKEND", "IPYTHON")
LAUNCHER = "ipykernel_launcher"
TIMEOUT = 60  # seconds to wait for the warm process's answer to a fork
# seconds to wait for it to be ready: in a fresh clone its first start compiles every module it
# imports (uv installs without bytecode) and unzips MiniLM, beside two other workers doing the same
READY_TIMEOUT = 600


def startup_environment(env: dict[str, str]) -> dict[str, str]:
    return {name: value for name, value in env.items() if name.startswith(STARTUP_VARIABLES)}


def threads_running() -> int:
    """Threads of this process, the interpreter's and native ones (an OpenBLAS pool is not in
    `threading`): forking with more than one is unsafe (a lock another thread holds stays held)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def serve(extra: list[str]) -> None:
    """The warm process: preload (`PRELOADED`, then `extra`, which tests use), say whether forking
    is safe, then fork one kernel per request line read from stdin, answering each with the
    child's pid on the control pipe (fd 1)."""
    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)  # as ipykernel sets it before any import
    with as_if_in_a_kernel(), warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")  # a warning at import a notebook would have shown
        for name in (*PRELOADED, *extra):
            importlib.import_module(name)
        for module, loader in LOADED:
            with contextlib.suppress(Exception):  # not installed: a kernel fails on use, as fresh
                getattr(importlib.import_module(module), loader)()
    control = os.fdopen(os.dup(1), "w")
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 1)
    leaked = [name for name in NOT_PRELOADED if name in sys.modules]
    leaked += [f"{w.category.__name__}: {w.message}" for w in warned]
    for thread in threading.enumerate():  # a timer an import started and cancelled, ending
        if thread is not threading.main_thread():
            thread.join(timeout=5)
    threads = threads_running()
    ready = threads == 1 and not leaked
    control.write(json.dumps({"ready": ready, "leaked": leaked, "threads": threads}) + "\n")
    control.flush()
    for line in sys.stdin.buffer:
        reap()
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            control.close()
            become_kernel(request, quiet)
            sys.exit(0)
        control.write(json.dumps({"pid": pid}) + "\n")
        control.flush()
    reap()


class _KernelShell:
    kernel = True  # all pandas asks of the shell: "IPython as a Jupyter kernel"


@contextlib.contextmanager
def as_if_in_a_kernel():
    """pandas decides one default at import by asking IPython whether it runs in a kernel
    (`display.max_columns`: 20 in a kernel, 0, "fit the terminal", elsewhere); a kernel imports
    it with the shell running, so the warm process answers as that shell would, while it imports."""
    builtins.get_ipython = _KernelShell  # type: ignore[attr-defined]
    try:
        yield
    finally:
        del builtins.get_ipython  # type: ignore[attr-defined]


def reap() -> None:
    """Collect the kernels that have exited (they stay zombies until then; the test worker watches
    each through a pidfd, which a zombie keeps readable)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def become_kernel(request: dict, quiet: int) -> None:
    """In the forked child: be what `python -m ipykernel_launcher -f FILE` started in the
    notebook's folder would be. Its exceptions and `SystemExit` end this process, never the loop."""
    os.setsid()
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    os.close(quiet)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ["JPY_PARENT_PID"] = str(os.getppid())
    # ipykernel reads JPY_PARENT_PID into a default when its kernelapp module runs (here: in the
    # warm process, before it was set), and without it no poller ends the kernel when its parent,
    # this warm process, has gone: the module runs again, reading this kernel's environment.
    importlib.reload(sys.modules["ipykernel.kernelapp"])
    sys.path[0] = os.getcwd()  # what `python -m` puts first (ipykernel_launcher takes it out)
    sys.argv = [LAUNCHER, *request["args"]]
    runpy.run_module(LAUNCHER, run_name="__main__", alter_sys=True)


class ForkedKernel:
    """What jupyter_client's local provisioner needs of a `subprocess.Popen`, for a kernel that is
    the warm process's child, not ours: its exit is watched through a pidfd, and signals go
    through it too, so a recycled pid can never be signalled by mistake."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.pidfd = os.pidfd_open(pid)

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self.pidfd], [], [], 0)[0]:
            self.returncode = 0  # the warm process reaps it; its own exit code is not ours to read
            os.close(self.pidfd)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and not select.select([self.pidfd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
        result = self.poll()
        assert result is not None
        return result

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            signal.pidfd_send_signal(self.pidfd, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class WarmKernels:
    """The warm process of one test worker, started on the first kernel it is asked for."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.usable = os.environ.get("CHUNKLAB_COLD_KERNELS", "") in ("", "0") and hasattr(
            os, "pidfd_open"
        )
        self.startup: dict[str, str] = {}
        self.interpreter: list[str] = []
        self.refusal = ""  # what the warm process said when it started (why it is not used)

    def start(self, interpreter: list[str]) -> bool:
        """The warm process, started once with the kernel command's own interpreter and options
        (`-X frozen_modules=off`, as ipykernel's kernel spec asks); a kernel asked for with other
        options gets a fresh interpreter."""
        if self.process is None and self.usable:
            self.interpreter = interpreter
            self.startup = startup_environment(dict(os.environ))
            self.process = subprocess.Popen(
                [*interpreter, os.path.abspath(__file__)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,  # one line per answer, read as it comes
            )
            said = self.answer(READY_TIMEOUT)
            self.refusal = said or f"no answer in {READY_TIMEOUT} s"
            self.usable = bool(json.loads(said or "{}").get("ready"))
        return self.usable and interpreter == self.interpreter

    def answer(self, timeout: float = TIMEOUT) -> str | None:
        assert self.process is not None and self.process.stdout is not None
        if not select.select([self.process.stdout], [], [], timeout)[0]:
            return None
        return self.process.stdout.readline().decode() or None

    def fork(self, cmd: list[str], env: dict[str, str], cwd: str) -> ForkedKernel | None:
        """A kernel forked for `cmd`, or None where only a fresh interpreter would be faithful."""
        at = cmd.index("-m") if "-m" in cmd else 0
        forkable = at > 0 and cmd[0] == sys.executable and cmd[at + 1 : at + 2] == [LAUNCHER]
        if not forkable:
            self.refusal = f"not ipykernel's launcher in this interpreter: {cmd[: at + 2]}"
            return None
        if not (self.start(cmd[:at]) and startup_environment(env) == self.startup):
            return None
        assert self.process is not None and self.process.stdin is not None
        request = {"args": cmd[at + 2 :], "env": env, "cwd": cwd}
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        self.process.stdin.flush()
        started = self.answer()
        if not started:
            self.usable = False
            raise RuntimeError("the warm kernel process did not answer")
        return ForkedKernel(json.loads(started)["pid"])

    def close(self) -> None:
        if self.process is not None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            self.process.wait(timeout=10)
            self.process = None


if __name__ == "__main__":
    serve(sys.argv[1:])
