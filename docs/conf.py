"""Sphinx configuration of the series' website (`make site`).

The site shows the notebooks as they are stored: their outputs were made by a fresh-kernel run and
are re-checked by nbval in `make test`, so Sphinx never executes them (`nb_execution_mode`).
`docs/notebooks` is a link to `../notebooks`, so a notebook added there (`10_*.ipynb`, a companion
`02b_*.ipynb`) becomes a page, in filename order, without editing anything here (`index.md`'s
toctree is a glob).
"""

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))  # this site's extensions, beside this file
sys.path.insert(0, str(HERE.parent))  # chunklab itself, for the API reference

# The project's public repository and where the site is published: said once, here. The project
# has no public home yet, so a local `make site` names a placeholder. The site is only published by
# .github/workflows/pages.yml, and there GitHub names the repository it runs in (GITHUB_REPOSITORY,
# "owner/name"): the repository and Binder buttons then open that repository, and the site's
# address is the one GitHub Pages gives it. README.md says the same.
OWNER, NAME = os.environ.get("GITHUB_REPOSITORY", "chunklab/chunklab").split("/")
REPOSITORY = f"https://github.com/{OWNER}/{NAME}"
BRANCH = "main"
SITE = f"https://{OWNER.lower()}.github.io/{NAME}/"

project = "chunklab"
author = "the chunklab authors"
copyright = "the chunklab authors, MIT licence"
html_title = "chunklab: chunking for RAG, step by step"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.githubpages",
    "series_links",
    # MathJax from `_static/mathjax`, not from a CDN: a page with an equation (09) opens offline
    # with no failed request. The package's import name has hyphens; Sphinx imports it as written.
    "sphinx-mathjax-offline",
    "public_api",  # before plain_docstrings, whose bridge then reads the docstrings it supplies
    "plain_docstrings",
]

root_doc = "index"
exclude_patterns = ["_build", "_ext", "**/.ipynb_checkpoints"]
templates_path = ["_templates"]

# --- notebooks (MyST-NB) -------------------------------------------------------------------------
nb_execution_mode = "off"  # the stored outputs are the checked ones; never re-run here
nb_merge_streams = True
myst_heading_anchors = 3  # `[x](02_structural.ipynb#some-heading)` resolves to the heading
myst_enable_extensions = ["dollarmath"]

# --- API reference from the docstrings ------------------------------------------------------------
autosummary_generate = True
# `api.md` documents the public names, the autosummary tree below it every module as internals;
# what each shows and leaves out (boilerplate, a public name twice) is _ext/public_api.py's.
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
default_role = "code"  # `name` in a docstring is code, as in Markdown (_ext/plain_docstrings.py)

# --- HTML: the book theme, its download and launch buttons ----------------------------------------
html_theme = "sphinx_book_theme"
html_baseurl = SITE
html_sourcelink_suffix = ""  # the download button hands over the .ipynb itself, not a .txt copy
html_theme_options = {
    "repository_url": REPOSITORY,
    "repository_branch": BRANCH,
    "path_to_docs": "",  # pages are named as the repository's files: notebooks/NN_x.ipynb
    "use_repository_button": True,
    "use_download_button": True,
    "launch_buttons": {"binderhub_url": "https://mybinder.org", "notebook_interface": "jupyterlab"},
    "show_toc_level": 2,
}
# The light/dark mode a first visit starts in: without it the theme's script finds no mode and logs
# "Got invalid theme mode" as a console error on every fresh visit (the browser check saw it).
html_context = {"default_mode": "auto"}
# The tab's icon. Without one, Chromium asks for /favicon.ico after a page loads and logs the 404 as
# a console error on whichever page is open when the answer comes back: the browser check failed on
# a random page once in a few runs (CI, stop 36).
html_favicon = "_static/favicon.svg"
# Outputs that fit the page: text wraps at the content column, a DataFrame scrolls in its own box
# (`make site-check` measures every output at 1280 and 390 px).
html_static_path = ["_static"]
html_css_files = ["outputs.css"]
