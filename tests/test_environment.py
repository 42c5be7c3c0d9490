"""environment.yml (conda) must install the same pinned packages as pyproject.toml (pip), and those
pins must be the versions `make test` installed, so a conda user gets what CI checked.

environment.yml is read with a YAML parser, as conda reads it: a file conda cannot parse (a merge
left its conflict markers in once) fails here, not on a user's machine.
"""

import importlib.metadata
import re
import tomllib

import yaml
from conftest import ROOT

PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(\[[A-Za-z0-9_,\-]+\])?==([A-Za-z0-9_.\-+]+)$")  # name[x]==v


def normalized(name: str) -> str:
    """PEP 503: `PyYAML`, `pyyaml` and `py_yaml` name one project."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse(requirement: str, where: str) -> tuple[str, str]:
    """'dask[bag]==2026.8.0' -> ('dask[bag]', '2026.8.0'), the name normalized."""
    match = PIN.match(requirement.strip())
    assert match, f"{where}: {requirement!r} is not pinned as name==version"
    name, extras, version = match.groups()
    return normalized(name) + (extras or "").lower(), version


def setup_extras() -> list[str]:
    """The extras the Makefile's set-up installs for both `make lab` and `make test`."""
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"pip install --quiet -e '\.\[([a-z,]+)\]'", makefile)
    assert found, "Makefile: no `pip install --quiet -e '.[extras]'` line in the set-up"
    return found.group(1).split(",")


def pyproject_pins() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [*project["dependencies"]]
    for extra in setup_extras():
        requirements += project["optional-dependencies"][extra]
    return dict(parse(r, "pyproject.toml") for r in requirements)


def environment() -> dict:
    return yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))


def environment_pins() -> dict[str, str]:
    dependencies = environment()["dependencies"]
    sections = [d["pip"] for d in dependencies if isinstance(d, dict) and "pip" in d]
    assert len(sections) == 1, "environment.yml: expected one `pip:` list under dependencies"
    return dict(parse(entry, "environment.yml") for entry in sections[0])


def test_environment_yml_is_a_conda_environment():
    env = environment()
    assert env["name"] == "chunklab" and env["channels"] == ["conda-forge"]
    assert "pip" in env["dependencies"]


def test_every_dependency_is_pinned_and_both_files_agree():
    pip, conda = pyproject_pins(), environment_pins()
    assert pip, "no dependencies found in pyproject.toml"
    only_pip = {k: v for k, v in pip.items() if conda.get(k) != v}
    only_conda = {k: v for k, v in conda.items() if pip.get(k) != v}
    assert not only_pip and not only_conda, (
        f"pyproject only: {only_pip}; environment.yml only: {only_conda}"
    )


def test_the_header_says_which_extras_it_mirrors():
    header = (ROOT / "environment.yml").read_text(encoding="utf-8").split("\nname:")[0]
    assert all(re.search(rf"\b{extra}\b", header) for extra in setup_extras()), header


def test_every_pin_is_the_version_make_test_installed():
    # conda cannot run offline here; what it would install is checked against the environment
    # `make test` built from the same pins (pip resolved them together, so they fit together).
    wrong = {}
    for requirement, version in environment_pins().items():
        name = requirement.split("[")[0]
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            installed = "not installed"
        if installed != version:
            wrong[name] = f"environment.yml {version}, installed {installed}"
    assert not wrong, wrong


def test_environment_yml_pins_a_python_the_project_accepts():
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "requires-python"
    ]
    pythons = [d for d in environment()["dependencies"] if str(d).startswith("python=")]
    assert len(pythons) == 1, "environment.yml: pin one python=X.Y"
    minimum = re.fullmatch(r">=(\d+)\.(\d+)", requires)
    pinned = re.fullmatch(r"python=(\d+)\.(\d+)", pythons[0])
    assert minimum and pinned, (requires, pythons[0])
    assert tuple(map(int, pinned.groups())) >= tuple(map(int, minimum.groups())), (
        requires,
        pythons,
    )
