"""What a user installs: the licence, the wheel (with the series' data inside), where things go."""

import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT, run_cli


def test_the_licence_file_is_the_one_pyproject_declares():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "license"
    ]
    assert declared == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_the_readme_never_suggests_installing_chunklab_from_pypi():
    # The name `chunklab` on PyPI belongs to an unrelated project.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not re.search(r"pip install\s+['\"]?chunklab\b", readme)
    assert "pip install -e ." in readme or "make lab" in readme


def test_every_folder_of_the_package_is_in_the_wheel():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"][
        "setuptools"
    ]["packages"]
    folders = {"chunklab." + p.parent.name for p in (ROOT / "chunklab").glob("*/__init__.py")} | {
        "chunklab"
    }
    assert sorted(folders - set(declared)) == []


def test_what_the_experiment_writes_is_ignored_by_git():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    from chunklab.cli import build_parser

    default_out = build_parser().parse_args(["experiment", "--article"]).out
    assert f"{default_out}/" in ignored and "results/" in ignored


def test_a_missing_data_folder_is_one_line_that_says_how_to_point_at_it(tmp_path):
    done = run_cli("experiment", "--article", env={"CHUNKLAB_DATA": str(tmp_path)})
    err = done.stderr.decode()
    assert (
        done.returncode == 2
        and err.count("\n") == 1
        and "CHUNKLAB_DATA" in err
        and "Traceback" not in err
    )


@pytest.mark.slow
def test_an_installed_wheel_runs_from_another_folder_with_the_series_data(tmp_path):
    # Build the wheel from a copy of the project (no build files left in the checkout), offline.
    source = tmp_path / "src"
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "build",
            "*.egg-info",
            ".pytest_cache",
            ".hypothesis",
            "__pycache__",
            "notebooks",
        ),
    )
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(
        [
            *pip,
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("chunklab-*.whl")

    # A fresh venv that sees this environment's dependencies but not the editable checkout: a path
    # in a .pth file is added to sys.path, but the .pth files inside it (the editable hook) are not
    # read.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [python, "-m", "pip", "-q", "install", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import chunklab; from chunklab import load_document; print(chunklab.__file__); "
        "print(load_document('manual').text[:19])"
    )
    done = subprocess.run([python, "-c", probe], cwd=elsewhere, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    where, start = done.stdout.splitlines()
    assert where.startswith(str(venv)) and start == "MANUAL DE OPERAÇÕES"
    table = subprocess.run(
        [venv / "bin" / "chunklab", "experiment", "--article"],
        cwd=elsewhere,
        capture_output=True,
        text=True,
    )
    assert table.returncode == 0, table.stderr
    assert table.stdout == run_cli("experiment", "--article").stdout.decode()
