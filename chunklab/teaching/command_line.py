"""The `chunklab` command run in a scratch folder, for a notebook that shows the command line.

Why: a notebook that teaches `chunklab index` should show the command and what it printed, not
the temporary folder, the working-folder switch and the clean-up around them. `ScratchFolder`
holds that plumbing: files written into a throw-away folder, each command run there, its output
printed under a `$ chunklab ...` line and returned. Paths are printed relative to the folder, so
stored outputs hold no absolute path.

By default a command runs as `python -m chunklab` in a process of its own, as a user would run
it. Handed the command's function (`chunklab.cli.main`, which this layer may not import), it runs
in this process instead: the same code, without paying Python's start-up and imports for each
command, which a notebook that runs six commands under nbval notices.
"""

from __future__ import annotations

import contextlib
import io
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType

Command = Callable[[Sequence[str]], object]  # `chunklab.cli.main`: the arguments after `chunklab`


class ScratchFolder:
    """A temporary folder to run `chunklab` in; removed by `close()` or at the end of a `with`."""

    def __init__(self, command: Command | None = None) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="chunklab-"))
        self.command = command

    def write(self, name: str, text: str) -> None:
        """Write (or overwrite) the file `name`, a path relative to the folder."""
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def delete(self, name: str) -> None:
        """Remove the file `name`, as a user deleting a document from the folder would."""
        (self.root / name).unlink()

    def path(self, name: str) -> Path:
        """The full path of `name`, for code that opens a file the command wrote."""
        return self.root / name

    def run(self, *args: str) -> str:
        """Run `chunklab ARGS` in the folder; print the command and its output, and return the
        output. A failing command raises, with what it wrote to stderr."""
        printed = self._in_this_process(args) if self.command else self._in_a_process(args)
        print("$ chunklab", shlex.join(args), "\n ", printed.replace("\n", "\n  "))
        return printed

    def _in_this_process(self, args: Sequence[str]) -> str:
        assert self.command is not None
        out = io.StringIO()
        with contextlib.chdir(self.root), contextlib.redirect_stdout(out):  # back even on an error
            code = self.command(list(args))
        if code not in (None, 0):
            raise RuntimeError(f"chunklab {shlex.join(args)} exited with {code}")
        return out.getvalue().strip()

    def _in_a_process(self, args: Sequence[str]) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "chunklab", *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"chunklab {shlex.join(args)} failed: {done.stderr.strip()}")
        return done.stdout.strip()

    def close(self) -> None:
        """Remove the folder and everything in it."""
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> ScratchFolder:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
