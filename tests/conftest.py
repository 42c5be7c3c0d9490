import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture
def manual():
    from chunklab import load_document

    return load_document("manual")


def run_cli(*args: str, env: dict | None = None, input: bytes | None = None):
    """Run `python -m chunklab ...` as a user would, in a separate process."""
    import os
    import subprocess

    return subprocess.run(
        [sys.executable, "-m", "chunklab", *args],
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        input=input,
        timeout=60,
    )
