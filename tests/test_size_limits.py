"""The library stays readable: no module over 400 lines, no function over 60.

A learner opens a module to find the idea a notebook just built, and a long file or function is
where a reader gets lost (the Markdown scanner and chunker were the first to be split). Read
with `ast`, so a function's length is its real extent (`end_lineno - lineno + 1`, decorators
aside), methods and nested functions included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "chunklab"
CHECKED = sorted(PACKAGE.rglob("*.py"))
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 60


def oversized(source: str, name: str) -> list[str]:
    """What in `source` breaks a limit: the file's length, then every function too long."""
    found = []
    lines = len(source.splitlines())
    if lines > MAX_FILE_LINES:
        found.append(f"{name}: {lines} lines (at most {MAX_FILE_LINES})")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                where = f"{name}:{node.lineno} {node.name}"
                found.append(f"{where}: {length} lines (at most {MAX_FUNCTION_LINES})")
    return found


def test_the_checked_files_exist():
    assert all(path.exists() for path in CHECKED)
    assert len(CHECKED) >= 4


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_file_or_function_is_too_long(path: Path):
    assert oversized(path.read_text(encoding="utf-8"), path.name) == []


def test_the_check_catches_a_long_function_and_a_long_file():
    body = "".join(f"    x{k} = {k}\n" for k in range(60))
    long_function = f"def f():\n{body}    return 0\n"  # 62 lines
    assert oversized(long_function, "f.py") == ["f.py:1 f: 62 lines (at most 60)"]
    method = f"class C:\n    def m(self):\n{body.replace('    ', '        ')}        return 0\n"
    assert oversized(method, "c.py") == ["c.py:2 m: 62 lines (at most 60)"]
    exactly = f"def g():\n{''.join(f'    y{k} = {k}' + chr(10) for k in range(58))}    return 0\n"
    assert oversized(exactly, "g.py") == []  # 60 lines: allowed
    assert oversized("x = 1\n" * 401, "big.py") == ["big.py: 401 lines (at most 400)"]
