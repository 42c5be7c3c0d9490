"""`make lint` fails on conflict markers in any project file (scripts/check_conflict_markers.py).

The markers here come from a real `git merge` in a scratch repository, so the check is shown on
what git writes, notebooks included; look-alikes a project legitimately holds must pass.
"""

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

SCRIPT = ROOT / "scripts" / "check_conflict_markers.py"
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def check(folder, **env):
    return subprocess.run(
        [sys.executable, str(SCRIPT), str(folder)],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )


def git(folder, *args):
    subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "init.defaultBranch=main",
            *args,
        ],
        cwd=folder,
        check=True,
        capture_output=True,
    )


def notebook(*lines: str) -> str:
    cell = {"cell_type": "code", "metadata": {}, "source": list(lines), "outputs": []}
    cell["execution_count"] = None
    return json.dumps(
        {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1
    )


@needs_git
def test_a_notebook_left_conflicted_by_a_merge_fails_the_check(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "01.ipynb").write_text(notebook("size = 200\n"))
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "base")
    git(tmp_path, "checkout", "-qb", "other")
    (tmp_path / "01.ipynb").write_text(notebook("size = 300\n"))
    git(tmp_path, "commit", "-qam", "other")
    git(tmp_path, "checkout", "-q", "main")
    (tmp_path / "01.ipynb").write_text(notebook("size = 100\n"))
    git(tmp_path, "commit", "-qam", "main")
    with pytest.raises(subprocess.CalledProcessError):  # the conflict
        git(tmp_path, "merge", "other")
    git(tmp_path, "add", "01.ipynb")  # staged with its markers in, as a hurried merge might be
    done = check(tmp_path)
    assert done.returncode == 1, done.stdout
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["01.ipynb"] * 3
    assert "'<<<<<<< HEAD'" in lines[0] and "'======='" in lines[1] and "other" in lines[2]


@needs_git
def test_look_alikes_a_clean_project_holds_pass(tmp_path):
    git(tmp_path, "init", "-q")
    marker_text = "<" * 7 + " HEAD\n"  # inside a cell: a quoted, indented JSON string
    (tmp_path / "02.ipynb").write_text(notebook(marker_text, "=" * 7 + "\n"))
    (tmp_path / "README.md").write_text("Title\n" + "=" * 7 + "\n\ntext\n")  # a setext heading
    (tmp_path / "blob.bin").write_bytes(b"\0" + ("<" * 7 + " x\n").encode())  # binary: skipped
    git(tmp_path, "add", ".")
    done = check(tmp_path)
    assert (done.returncode, done.stdout) == (0, "")


@needs_git
def test_in_a_checkout_only_tracked_files_are_read(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / "kept.yml").write_text("a: 1\n")
    git(tmp_path, "add", ".")
    (tmp_path / "scratch.txt").write_text("<" * 7 + " HEAD\n")  # never added
    assert check(tmp_path).returncode == 0
    git(tmp_path, "add", "scratch.txt")
    assert check(tmp_path).stdout.startswith("scratch.txt:1: ")


def test_outside_git_every_file_is_read_except_the_folders_gitignore_names(tmp_path):
    project = tmp_path / "chunklab-0.1.0"  # an unpacked tarball: no .git anywhere above it
    (project / ".venv" / "lib").mkdir(parents=True)
    (project / "data").mkdir()
    (project / ".gitignore").write_text(".venv/\n")
    (project / ".venv" / "lib" / "x.py").write_text(">" * 7 + " theirs\n")  # ignored folder
    (project / "data" / "notes.md").write_text("a\n" + "<" * 7 + " ours\nb\n" + "=" * 7 + "\n")
    done = check(project, GIT_CEILING_DIRECTORIES=str(tmp_path))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "data/notes.md:2: conflict marker '<<<<<<< ours'",
        "data/notes.md:4: conflict marker '======='",
    ]


def test_make_lint_runs_the_check_first():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\nlint:") + 1 :].split("\n\n")[0].splitlines()
    assert recipe[1].strip() == "$(PY) scripts/check_conflict_markers.py"
