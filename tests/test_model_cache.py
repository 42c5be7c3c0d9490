"""The unzipped copy of the MiniLM model (`chunklab.tokens.wordpiece.unzipped_model_file`): the
same bytes as the checked file in the wheel's zip, reused by later processes, written again when
it is cut short, never used for another checksum, and skipped where it cannot be written."""

import numpy as np
import pytest
from safetensors.numpy import load, load_file

from chunklab.tokens import wordpiece
from chunklab.tokens.wordpiece import ModelUnavailable, read_model_file, unzipped_model_file


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("CHUNKLAB_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_copy_holds_the_checked_bytes_and_a_later_call_reuses_it(cache, monkeypatch):
    kept = unzipped_model_file("config.json")
    assert kept is not None and kept.parent == cache
    assert kept.read_bytes() == read_model_file("config.json")

    def unzipped_again(name):
        raise AssertionError(f"{name} was unzipped again")

    monkeypatch.setattr(wordpiece, "read_model_file", unzipped_again)
    assert unzipped_model_file("config.json") == kept


def test_a_copy_cut_short_is_written_again(cache):
    kept = unzipped_model_file("config.json")
    whole = kept.read_bytes()
    kept.write_bytes(whole[: len(whole) // 2])
    assert unzipped_model_file("config.json").read_bytes() == whole


def test_another_checksum_is_checked_again_and_refused(cache, monkeypatch):
    unzipped_model_file("config.json")
    monkeypatch.setitem(wordpiece.MODEL_FILES, "config.json", "0" * 64)
    with pytest.raises(ModelUnavailable, match="does not match its published checksum"):
        unzipped_model_file("config.json")


def test_where_the_cache_cannot_be_written_the_zip_is_read(tmp_path, monkeypatch):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("x")
    monkeypatch.setenv("CHUNKLAB_CACHE", str(blocked))
    assert unzipped_model_file("config.json") is None
    assert list(tmp_path.iterdir()) == [blocked]  # no partial file left behind


def test_the_weights_read_from_the_copy_equal_those_read_from_the_zip(cache):
    from_copy = load_file(unzipped_model_file("model.safetensors"))
    from_zip = load(read_model_file("model.safetensors"))
    assert from_copy.keys() == from_zip.keys()
    for name, array in from_zip.items():
        assert from_copy[name].dtype == array.dtype and np.array_equal(from_copy[name], array)
