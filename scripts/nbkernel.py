"""Notebook kernels that talk over Unix sockets (IPC) instead of TCP on localhost.

Why: the offline check, `unshare -n make test`, runs in a network namespace where even loopback is
down, and Jupyter's default transport is TCP on 127.0.0.1, so a kernel could not be reached there.
With IPC, running a notebook needs no network at all. Windows has no IPC transport, so TCP stays
the default there.

Used by `make nbval` as a pytest plugin (`-p scripts.nbkernel`) and by scripts/run_notebooks.py.
"""

import os
import tempfile
import uuid

from jupyter_client.manager import KernelManager
from traitlets import CaselessStrEnum, default


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


def pytest_configure(config):
    import nbval.kernel

    nbval.kernel.KernelManager = LocalKernelManager
