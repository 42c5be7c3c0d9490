"""A kernel forked from the warm process (scripts/kernel_fork.py) is what a fresh one would be.

nbval re-checks every notebook's stored outputs (made by fresh kernels) with forked kernels, which
is the main check; these tests pin what a notebook's outputs might not exercise: the settings a
preloaded import could change, the process a kernel is (working folder, session, environment,
`sys.path`), an interrupt reaching it, its exit seen, and where a fork would not be faithful.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, NbvalKernelspecManager

from scripts import kernel_fork, nbkernel  # the plugin's own modules: one warm process a worker

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="forking needs pidfds")

# The kernel nbval starts with --nbval-current-env: this interpreter's ipykernel.
AS_NBVAL = {"kernel_name": CURRENT_ENV_KERNEL_NAME, "kernel_spec_manager": NbvalKernelspecManager()}

# What a cell can see of the process it runs in and of the settings imports make.
PROBE = """import json, os, sys, pandas, matplotlib
print(json.dumps({
    "cwd": os.getcwd(), "path": sys.path, "session_leader": os.getsid(0) == os.getpid(),
    "env": sorted(os.environ), "main": type(sys.modules["__main__"]).__name__,
    "pandas": {k: repr(pandas.get_option(k)) for k in ("display.max_columns", "display.width",
               "display.max_rows", "display.max_colwidth", "display.precision")},
    "backend": str(matplotlib.rcParams["backend"]),
    "preloaded": "chunklab.teaching.claims" in sys.modules and "chunklab.embeddings.static"
                 in sys.modules and sys.modules["chunklab.embeddings.static"].wordllama_model
                 .cache_info().currsize,
    "parent_poller": type(get_ipython().kernel.parent.poller).__name__,
}))"""


def run_probe(manager) -> tuple[dict, object]:
    manager.start_kernel(cwd=str(ROOT / "notebooks"))
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    printed: list[str] = []
    client.execute_interactive(
        PROBE, timeout=60, output_hook=lambda m: printed.append(m["content"].get("text", ""))
    )
    return json.loads("".join(printed)), client


def stop(manager, client) -> None:
    client.stop_channels()
    manager.shutdown_kernel(now=False)


def test_forked_kernel_is_a_fresh_one_with_its_imports_done():
    fresh = nbkernel.LocalKernelManager(**AS_NBVAL)
    seen_fresh, client = run_probe(fresh)
    stop(fresh, client)

    forked = nbkernel.ForkedKernelManager(**AS_NBVAL)
    seen_forked, client = run_probe(forked)
    assert isinstance(forked.provisioner.process, kernel_fork.ForkedKernel), forked.warm.refusal
    assert seen_forked.pop("preloaded") and not seen_fresh.pop("preloaded")
    assert seen_forked == seen_fresh

    # An interrupt reaches it as it reaches a fresh kernel: a cell stopped, the kernel alive.
    client.execute("import time; time.sleep(60)")
    time.sleep(0.5)
    started = time.monotonic()
    forked.interrupt_kernel()
    reply = client.get_shell_msg(timeout=30)
    assert reply["content"]["ename"] == "KeyboardInterrupt"
    assert time.monotonic() - started < 30 and forked.is_alive()

    process = forked.provisioner.process
    stop(forked, client)
    assert process.poll() is not None  # its exit seen through the pidfd


def test_a_kernel_needing_other_startup_settings_is_not_forked():
    warm = nbkernel.WARM
    command = [sys.executable, "-Xfrozen_modules=off", "-m", kernel_fork.LAUNCHER, "-f", "x.json"]
    hash_seed = {**os.environ, "PYTHONHASHSEED": "123"}
    assert warm.fork(command, hash_seed, str(ROOT)) is None
    no_options = [sys.executable, "-m", kernel_fork.LAUNCHER, "-f", "x.json"]
    if warm.interpreter == command[:2]:
        assert warm.fork(no_options, dict(os.environ), str(ROOT)) is None
    assert warm.fork([sys.executable, "-m", "other_launcher"], dict(os.environ), str(ROOT)) is None


def test_the_warm_process_refuses_an_import_that_changes_what_a_notebook_sees(tmp_path):
    """An import that sets pandas' display options, or warns, would change a notebook's outputs
    if done before the kernel: the warm process says so and is not used."""
    (tmp_path / "warns_at_import.py").write_text("import warnings\nwarnings.warn('imported')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    extra = ["chunklab.teaching.report", "warns_at_import"]
    process = subprocess.run(
        [sys.executable, kernel_fork.__file__, *extra],
        env=env,
        input=b"",
        capture_output=True,
        timeout=60,
    )
    said = json.loads(process.stdout.splitlines()[0])
    assert said["ready"] is False
    assert said["leaked"] == ["chunklab.teaching.report", "UserWarning: imported"]


def test_a_forked_kernel_ends_when_its_warm_process_does():
    """Nothing outlives the tests: ipykernel's poller ends a kernel whose parent has gone, and the
    warm process is that parent (a test worker's end closes the warm process's stdin; it exits)."""
    manager = nbkernel.ForkedKernelManager(**AS_NBVAL)
    manager.warm = kernel_fork.WarmKernels()
    manager.start_kernel(cwd=str(ROOT / "notebooks"))
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=60)
    process = manager.provisioner.process
    assert isinstance(process, kernel_fork.ForkedKernel) and process.poll() is None
    manager.warm.process.kill()
    manager.warm.process.wait(timeout=10)
    try:
        assert process.wait(timeout=20) == 0
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
