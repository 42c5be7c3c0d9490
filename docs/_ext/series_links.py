"""The notebooks as pages, and their links to the rest of the repository working on the site.

Why an extension: Sphinx reads only files under its source folder (`docs/`), while the notebooks
live in `notebooks/` and link to `../README.md` and `../data/...` as the repository lays them out
(so they work in JupyterLab and on GitHub). A symbolic link `docs/notebooks` is not enough: Sphinx
resolves a link's path through it and then finds no page for `02_structural.ipynb`. So:

- before reading, every `notebooks/*.ipynb` is copied to `docs/notebooks/` (git-ignored), and
  copies of notebooks that are gone are removed: a notebook added later is a page without any
  change here, in filename order (`index.md`'s toctree is a glob);
- a link MyST cannot resolve inside the site is read as the repository would read it: from the
  page's file in the repository (`index` stands for `README.md`, whose opening it includes). A link
  to `README.md` becomes a link to the landing page (anchors kept, and checked by MyST); a link to
  any other file of the repository (`data/SOURCES.md`, `LICENSE`) becomes a download of that file,
  copied into the site. Anything else stays unresolved, and MyST's warning fails the `-W` build.
"""

import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config

ROOT = Path(__file__).resolve().parents[2]  # the repository: docs/_ext/ -> docs/ -> root
STAGED = "notebooks"  # docs/notebooks/: copies of the repository's notebooks/*.ipynb


def stage_notebooks(app: Sphinx, config: Config) -> None:
    """Copy the notebooks beside the site's sources (mtimes kept: unchanged, not re-read)."""
    source, target = ROOT / "notebooks", Path(app.srcdir) / STAGED
    target.mkdir(exist_ok=True)
    wanted = {p.name: p for p in sorted(source.glob("*.ipynb"))}
    for stale in target.glob("*.ipynb"):
        if stale.name not in wanted:
            stale.unlink()
    for name, path in wanted.items():
        copy = target / name
        if not copy.exists() or copy.read_bytes() != path.read_bytes():
            shutil.copy2(path, copy)


def repository_path(docname: str) -> Path:
    """The file in the repository a page was made from (the landing page comes from README.md)."""
    if docname == "index":
        return Path("README.md")
    if docname.startswith(STAGED + "/"):
        return Path(docname + ".ipynb")
    return Path("docs") / docname


def resolve(docname: str, target: str) -> tuple[str, str, str] | None:
    """("doc", page, anchor) or ("file", path from the site's sources, "") for a repository link."""
    path, _, anchor = target.partition("#")
    if not path or "://" in path:
        return None
    here = ROOT / repository_path(docname).parent
    found = (here / path).resolve()
    if not found.is_relative_to(ROOT) or not found.is_file():
        return None
    relative = found.relative_to(ROOT)
    if relative == Path("README.md"):
        return "doc", "index", anchor
    if relative.parts[0] in ("docs", ".git", ".venv"):
        return None
    return "file", "/" + Path("..", relative).as_posix(), ""


def link_repository_files(app: Sphinx, doctree: nodes.document) -> None:
    """Rewrite MyST's unresolved links before the download collector and the resolver see them."""
    docname = app.env.docname
    for node in list(doctree.findall(addnodes.pending_xref)):
        if node.get("reftype") != "myst" or node.get("refdomain") is not None:
            continue
        found = resolve(docname, node["reftarget"])
        if found is None:
            continue
        kind, target, anchor = found
        if kind == "doc":
            node["refdomain"], node["reftarget"] = "doc", target
            node["reftargetid"] = anchor or None
            continue
        download = addnodes.download_reference(
            refdomain=None, reftarget=target, refdoc=docname, reftype="myst", refexplicit=True
        )
        download["classes"] = ["xref", "download", "myst"]
        download.extend(node.children)
        node.replace_self(download)


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("config-inited", stage_notebooks)
    # before Sphinx's own handlers (priority 500), which collect the downloads of a doctree
    app.connect("doctree-read", link_repository_files, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
