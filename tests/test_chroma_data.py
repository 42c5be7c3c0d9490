"""Chroma's benchmark data (data/chroma/): every file has its source row and its recorded hash."""

import hashlib
import re

from conftest import DATA

CHROMA = DATA / "chroma"


def recorded_hashes() -> dict[str, str]:
    """file -> SHA-256, from the table of data/chroma/SOURCES.md (each row's last cell)."""
    rows = re.findall(
        r"^\| ([\w./-]+\.(?:md|csv|tsv|npy|json)) \|.*\| ([0-9a-f]{64}) \|$",
        (CHROMA / "SOURCES.md").read_text(encoding="utf-8"),
        re.M,
    )
    return dict(rows)


def test_every_file_of_the_benchmark_has_its_source_and_an_unchanged_hash():
    recorded = recorded_hashes()
    files = sorted(p.relative_to(CHROMA).as_posix() for p in CHROMA.rglob("*") if p.is_file())
    files.remove("SOURCES.md")
    assert (
        sorted(recorded)
        == files
        == sorted(
            ["chatlogs.md", "finance.md", "pubmed.md", "questions_df.csv"]
            + ["state_of_the_union.md", "wikitexts.md"]
            + ["embeddings/cuts.json", "embeddings/minilm.npy"]  # make embeddings
            + ["embeddings/minilm.tsv"]
        )
    )
    for name, digest in recorded.items():
        assert hashlib.sha256((CHROMA / name).read_bytes()).hexdigest() == digest, name


def test_the_hash_check_notices_a_one_character_edit():
    text = (CHROMA / "chatlogs.md").read_bytes()
    edited = text.replace(b"the", b"The", 1)
    assert edited != text
    assert hashlib.sha256(edited).hexdigest() != recorded_hashes()["chatlogs.md"]
