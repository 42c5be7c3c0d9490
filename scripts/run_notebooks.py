"""Re-execute notebooks in place, each in a fresh kernel: the only way stored outputs are made.

Usage: python scripts/run_notebooks.py notebooks/*.ipynb

Each notebook runs with its own folder as the working directory (as nbval runs it), in the
`chunklab` kernel that `make` registers inside .venv, over IPC sockets (scripts/nbkernel.py).
Cell timing metadata is not recorded, so a re-run that changes nothing leaves the file unchanged.
Prints each notebook's run time.
"""

import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbkernel import LocalKernelManager  # noqa: E402  (IPC transport: see nbkernel.py)


def coalesce_streams(outputs: list) -> list:
    """One output per run of stdout (or stderr) text: how a cell's print() calls arrive in messages
    depends on timing, and a stored notebook should not (nbval compares the text, coalesced)."""
    merged: list = []
    for out in outputs:
        if (
            merged
            and out.output_type == "stream"
            and merged[-1].output_type == "stream"
            and merged[-1].name == out.name
        ):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def run(path: Path) -> float:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    client = NotebookClient(
        nb,
        kernel_name="chunklab",
        kernel_manager_class=LocalKernelManager,
        timeout=120,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    began = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - began
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)
    nbformat.write(nb, path)
    return elapsed


def main(paths: list[str]) -> int:
    if not paths:
        print("usage: run_notebooks.py NOTEBOOK...", file=sys.stderr)
        return 2
    for name in paths:
        elapsed = run(Path(name))
        print(f"{name}: {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
