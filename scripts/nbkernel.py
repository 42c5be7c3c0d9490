"""Notebook kernels that talk over Unix sockets (IPC) instead of TCP on localhost.

Why: the offline check, `unshare -n make test`, runs in a network namespace where even loopback is
down, and Jupyter's default transport is TCP on 127.0.0.1, so a kernel could not be reached there.
With IPC, running a notebook needs no network at all. Windows has no IPC transport, so TCP stays
the default there.

Used by `make nbval` and `make test` as a pytest plugin (`-p scripts.nbkernel`), whose kernels are
forked from a warm process (scripts/kernel_fork.py says why and what that shares), and by
scripts/run_notebooks.py, whose kernels, the ones stored outputs come from, are always fresh.
"""

import atexit
import os
import tempfile
import uuid

from jupyter_client.manager import KernelManager
from traitlets import CaselessStrEnum, default

try:  # as a pytest plugin (`-p scripts.nbkernel`) and in tests/test_kernel_fork.py
    from scripts.kernel_fork import WarmKernels
except ImportError:  # run from scripts/ itself (run_notebooks.py)
    from kernel_fork import WarmKernels


class LocalKernelManager(KernelManager):
    transport = CaselessStrEnum(
        ["tcp", "ipc"], default_value="ipc" if os.name == "posix" else "tcp", config=True
    )

    @default("ip")
    def _absolute_socket_path(self):
        # jupyter_client's default IPC path is the relative "kernel-ipc": the kernel (started in
        # the notebook's folder) and the client (started here) would look in different places.
        if self.transport == "ipc":
            return os.path.join(tempfile.gettempdir(), f"chunklab-kernel-{uuid.uuid4().hex[:12]}")
        return super()._ip_default()


WARM = WarmKernels()
atexit.register(WARM.close)


class ForkedKernelManager(LocalKernelManager):
    """A kernel forked from this process's warm one where that is faithful, else a fresh one."""

    warm = WARM  # one per test worker (a test may give a manager a warm process of its own)

    async def _async_launch_kernel(self, kernel_cmd, **kw):
        # jupyter_client's documented place to launch a kernel differently; what its local
        # provisioner would do after Popen is done here, with the forked child in its place.
        env = kw.get("env") or dict(os.environ)
        forked = self.warm.fork(list(kernel_cmd), env, str(kw.get("cwd") or os.getcwd()))
        if forked is None:
            return await super()._async_launch_kernel(kernel_cmd, **kw)
        provisioner = self.provisioner
        provisioner.process, provisioner.pid, provisioner.pgid = forked, forked.pid, forked.pid
        provisioner.cwd = kw.get("cwd") or os.getcwd()
        self._reconcile_connection_info(provisioner.connection_info)


def pytest_configure(config):
    import nbval.kernel

    nbval.kernel.KernelManager = ForkedKernelManager
