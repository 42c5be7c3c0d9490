from chunklab import Document
from chunklab.chunkers.structural import StructuralChunker, recursive_split
from chunklab.evaluation.metrics import starts_mid_line


def test_the_articles_eleven_and_six_chunks(manual):
    plain = StructuralChunker(size=200).split(manual)
    packed = StructuralChunker(size=200, repack=True).split(manual)
    assert (len(plain), len(packed)) == (11, 6)
    assert starts_mid_line(plain, manual) == starts_mid_line(packed, manual) == 0
    assert [c.text for c in plain[4:7]] == [
        "| Medida | Unidade | Limite | Ação |",
        "|---|---|---|---|",
        "| Vibração | mm/s | 4,5 | Parar o equipamento |",
    ]
    assert packed[3].text.startswith(
        "3. Tabela de tolerância\n| Medida | Unidade | Limite | Ação |\n|---|"
    )
    assert packed[4].text.startswith(
        "| Ruído | dB | 92 | Revisar o isolamento |\n| Desalinhamento | mm | 0,0"
    )


def test_the_articles_printed_word_counts_are_not_what_its_code_gives(manual):
    # The article prints (7 tok) and (6 tok) for these rows; its own len(text.split()) gives 11.
    plain = StructuralChunker(size=200).split(manual)
    assert [c.token_count for c in plain[3:8]] == [4, 9, 1, 11, 11]


def test_every_chunk_is_an_exact_slice(manual):
    for repack in (False, True):
        for c in StructuralChunker(repack=repack).split(manual):
            assert c.text == manual.text[c.start : c.end]


def test_cutting_at_sentences_keeps_the_full_stops():
    text = "First sentence here. Second one is here. Third."
    doc = Document(doc_id="d", uri="urn:d", title="", text=text)
    chunks = StructuralChunker(size=25).split(doc)
    assert [c.text for c in chunks] == ["First sentence here.", "Second one is here.", "Third."]
    assert "".join(c.text for c in chunks).count(".") == text.count(".")


def test_what_no_separator_can_shorten_is_cut_every_size_characters():
    # The article keeps such a piece whole; a URL, minified JSON or base64 would then be one chunk.
    assert recursive_split("x" * 50, 0, 50, 10) == [(0, 10), (10, 20), (20, 30), (30, 40), (40, 50)]
    assert recursive_split("ab " + "x" * 25, 0, 28, 10) == [(0, 2), (3, 13), (13, 23), (23, 28)]


def test_glue_joins_a_stack_of_headings_to_its_text():
    from chunklab.chunkers.structural import glue_headings

    text = "## A\n\n### B\n\nbody\n\n#tag\n\nmore"  # a stack, then a tag: no heading
    spans = StructuralChunker(size=100).spans(text)
    assert glue_headings(text, spans, 100) == [(0, 17), (19, 23), (25, 29)]
    assert glue_headings(text, spans, 12) == [(0, 11), (13, 17), (19, 23), (25, 29)]
    glued = StructuralChunker(size=100, glue=True).split(text)
    assert [c.text for c in glued][0] == "## A\n\n### B\n\nbody"
    assert glued[0].metadata["strategy"] == "structural-glue"
