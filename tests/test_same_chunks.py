"""The same chunks, byte for byte, as when `tests/fixtures/chunk_hashes.json` was written.

Every strategy on every document in `data/` (see `tests/same_chunks.py`). A refactor must leave all
of them in place; a change meant to move chunks rewrites the fixture in the same commit.
"""

import json

from same_chunks import FIXTURE, all_hashes, digest


def test_every_strategy_on_every_document_gives_the_stored_chunks():
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    now = all_hashes()
    assert set(now) == set(stored), "strategies added or removed: rewrite the fixture on purpose"
    moved = [f"{s} on {d}" for s in stored for d in stored[s] if now[s].get(d) != stored[s][d]]
    assert not moved, f"{len(moved)} chunk lists moved, first: {moved[:5]}"


def test_the_fingerprint_sees_one_changed_byte():
    from chunklab import FixedSizeChunker, load_document

    chunks = FixedSizeChunker(size=200, overlap=40).split(load_document("manual"))
    changed = [*chunks[:-1], chunks[-1].model_copy(update={"text": chunks[-1].text + " "})]
    assert digest(changed) != digest(chunks)
