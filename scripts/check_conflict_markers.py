"""Fail when a file of the project still holds a merge's conflict markers (`make lint` runs it).

Why: a merge once left `<<<<<<< HEAD` in environment.yml. YAML, notebooks and Markdown have no
compiler to refuse them, so the file looked fine to every check and broke `conda env create`.

Which files: those git tracks (`git ls-files`), or, outside a git checkout (a tarball), every file
under the folder except the folders .gitignore names. Binary files are skipped.

What counts: a line that starts with `<<<<<<< `, `>>>>>>> ` or `||||||| ` (the two sides and the
common ancestor git writes), and a line that is exactly `=======` between such an opening line and
its end. A lone `=======` is a setext heading's underline in Markdown, so it alone is not a marker.
In a notebook a cell's text is a JSON string, indented and quoted, so only a conflict in the file
itself puts a marker at the start of a line.

Usage: python scripts/check_conflict_markers.py [FOLDER]   (default: the project's root)
Prints one line per marker (file:line: the marker) and exits 1 if there is any, else 0.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPENING, ANCESTOR, CLOSING, SEPARATOR = b"<<<<<<< ", b"||||||| ", b">>>>>>> ", b"======="


def markers(data: bytes) -> list[tuple[int, str]]:
    """(line number, line) of every conflict marker in a file's bytes."""
    found: list[tuple[int, str]] = []
    inside = False
    for number, line in enumerate(data.splitlines(), start=1):
        if line.startswith((OPENING, ANCESTOR, CLOSING)):
            found.append((number, line.decode("utf-8", "replace")))
            inside = not line.startswith(CLOSING)
        elif line.rstrip(b"\r") == SEPARATOR and inside:
            found.append((number, SEPARATOR.decode()))
    return found


def tracked_files(folder: Path) -> list[Path] | None:
    """The files git tracks under `folder`, or None when it is not a git checkout."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=folder, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [folder / name for name in listed.decode("utf-8").split("\0") if name]


def ignored_folders(folder: Path) -> list[str]:
    """The folder patterns of .gitignore (lines ending in `/`), and .git itself."""
    gitignore = folder / ".gitignore"
    lines = gitignore.read_text(encoding="utf-8").splitlines() if gitignore.exists() else []
    return [".git"] + [line.strip().rstrip("/") for line in lines if line.strip().endswith("/")]


def walked_files(folder: Path) -> list[Path]:
    """Every file under `folder`, leaving out the folders .gitignore names (as git would)."""
    patterns = ignored_folders(folder)
    files: list[Path] = []
    for here, subfolders, names in os.walk(folder):
        relative = Path(here).relative_to(folder)
        subfolders[:] = [
            name
            for name in sorted(subfolders)
            if not any(
                fnmatch.fnmatch(name, p) or fnmatch.fnmatch((relative / name).as_posix(), p)
                for p in patterns
            )
        ]
        files += [Path(here) / name for name in sorted(names)]
    return files


def project_files(folder: Path) -> list[Path]:
    """The project's files: what git tracks, or outside git what it would (tests/test_binder.py
    copies these, as Binder gets them)."""
    files = tracked_files(folder)
    return walked_files(folder) if files is None else files


def check(folder: Path) -> list[str]:
    """One line per conflict marker found in the project's files under `folder`."""
    problems = []
    for path in project_files(folder):
        if not path.is_file():  # deleted but not yet staged, or a link to a folder
            continue
        data = path.read_bytes()
        if b"\0" in data:  # binary: git would not write markers into it either
            continue
        for number, line in markers(data):
            problems.append(f"{path.relative_to(folder)}:{number}: conflict marker {line!r}")
    return problems


def main(argv: list[str]) -> int:
    folder = Path(argv[0]).resolve() if argv else ROOT
    problems = check(folder)
    for problem in problems:
        print(problem)
    if problems:
        print(
            f"{len(problems)} merge conflict marker(s): resolve them, then commit", file=sys.stderr
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
