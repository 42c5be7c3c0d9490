"""The LLM chunker hook: prompts built without a call, cuts where the (fake) model says, chunks
that are exact slices covering the document, and a bad reply reported, never guessed around."""

import re

import pytest

from chunklab import load_document
from chunklab.chunkers.llm import LLMChunker, split_after


def numbers_in(prompt):
    return [int(n) for n in re.findall(r"<\|start_chunk_(\d+)\|>", prompt)]


def test_prompts_send_nothing_and_number_every_piece_once():
    def no_model(prompt):
        raise AssertionError("prompts() must not call the model")

    doc = load_document("work_schedules")
    chunker = LLMChunker(no_model)
    prompts = chunker.prompts(doc)
    seen = [n for p in prompts for n in numbers_in(p)]
    assert seen == list(range(1, len(chunker.pieces(doc)) + 1))
    assert len(prompts) > 1 and all("split_after:" in p for p in prompts)


def test_cuts_fall_after_the_pieces_the_model_names_and_the_next_call_resumes_there():
    doc = load_document("work_schedules")
    sent = []

    def model(prompt):  # a stand-in: splits after the third piece of every window
        sent.append(numbers_in(prompt))
        shown = numbers_in(prompt)
        return f"Sure.\nsplit_after: {shown[min(2, len(shown) - 1)]}"

    chunker = LLMChunker(model)
    pieces = chunker.pieces(doc)
    chunks = chunker.split(doc)
    assert "".join(c.text for c in chunks) == "".join(doc.text[c.start : c.end] for c in chunks)
    assert all(doc.text[c.start : c.end] == c.text for c in chunks)
    assert chunks[0].start == pieces[0].start and chunks[-1].end == pieces[-1].end
    assert all(a.end == b.start for a, b in zip(chunks, chunks[1:], strict=False))
    assert chunks[0].end == pieces[2].end  # the first cut: after piece 3
    assert sent[1][0] == 4  # the second call starts right after it
    assert len(chunks) > 2


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("I would split after 3.", "no 'split_after:' line"),
        ("split_after: 5, 3", "out of order"),
        ("split_after: 0", "outside"),
        ("split_after: 999", "outside"),
        ("split_after: 3.5", "not a list of whole numbers"),  # read as [3, 5] before
        ("split_after: 3, five", "not a list of whole numbers"),  # read as [3] before
    ],
)
def test_a_reply_that_names_no_valid_piece_is_an_error_that_quotes_it(reply, message):
    with pytest.raises(ValueError, match=message):
        split_after(reply, 1, 16)
    with pytest.raises(ValueError, match=message):
        LLMChunker(lambda prompt: reply).split(load_document("manual"))
