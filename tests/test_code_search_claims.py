"""The code-search claims' helpers: the density table the notebook states its claims on."""

from chunklab.teaching.code_search_claims import per_200_characters


def test_density_counts_per_200_characters():
    table = per_200_characters({"text": "abcd " * 80}, lambda text: len(text.split()) * 2)
    assert table.loc["text", "words"] == 40.0  # 80 words in 400 characters
    assert table.loc["text", "MiniLM word pieces"] == 80.0
