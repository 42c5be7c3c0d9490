import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
# The real documents (copied unchanged, see data/SOURCES.md): front matter, template tags, tables.
REAL_DOCUMENTS = [
    "18f-leave.md",
    "18f-work-schedules.md",
    "cloudgov-space-egress.md",
    "gdsway-managing-sensitive-information.md",
    "pagerduty-post-mortem-template.md",
]


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
