"""pyproject.toml (pip) and environment.yml (conda) must install the same pinned packages."""

import re
import tomllib

from conftest import ROOT

PIN = re.compile(
    r"^([A-Za-z0-9_.\-]+(?:\[[A-Za-z0-9_,\-]+\])?)==([A-Za-z0-9_.\-+]+)$"
)  # name[extras]==version


def pyproject_pins() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"]]
    for extra in ("lab", "test", "dask", "docs", "integrations"):
        requirements += project["optional-dependencies"][extra]
    return dict(parse(r, "pyproject.toml") for r in requirements)


def environment_pins() -> dict[str, str]:
    lines = (ROOT / "environment.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("  - pip:") + 1
    entries = [
        line.strip().removeprefix("- ") for line in lines[start:] if line.startswith("      - ")
    ]
    return dict(parse(e, "environment.yml") for e in entries)


def parse(requirement: str, where: str) -> tuple[str, str]:
    match = PIN.match(requirement.strip())
    assert match, f"{where}: {requirement!r} is not pinned as name==version"
    return match.group(1).lower().replace("_", "-"), match.group(2)


def test_every_dependency_is_pinned_and_both_files_agree():
    pip, conda = pyproject_pins(), environment_pins()
    assert pip, "no dependencies found in pyproject.toml"
    only_pip = {k: v for k, v in pip.items() if conda.get(k) != v}
    only_conda = {k: v for k, v in conda.items() if pip.get(k) != v}
    assert not only_pip and not only_conda, (
        f"pyproject only: {only_pip}; environment.yml only: {only_conda}"
    )


def test_environment_yml_pins_the_python_the_project_requires():
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    assert re.search(r"^\s*- python=3\.1[1-9]", text, re.M)
