"""The article's figures for its 200/40 fixed-size cut, quoted, and notebook 01's checks of our
numbers against them.

Notebook 01 compares its cut with what the article prints (its five chunk openings, a few
sentences), and its companion 01c with the article's word counts. Those comparisons are bookkeeping
beside the lesson, so they live here: the notebook's cells call them and show the printed lines.
Each quote is the article's Portuguese with an English rendering.
"""

from __future__ import annotations

from chunklab.teaching.claims import Claim, claim

QUOTES: dict[str, tuple[str, str]] = {
    "five-chunks": (
        "Cinco trechos, e três deles começam no meio de uma linha.",
        "five chunks, and three of them start in the middle of a line",
    ),
    "92-no-name": (
        "Para quem lê, 92 é um número sem nome: "
        "o cabeçalho com a palavra Limite está no trecho [2]",
        "to a reader, 92 is a number with no name: the header with the word Limite is in chunk [2]",
    ),
    "overlap-advice": (
        "Comece com 10% a 15% do tamanho do trecho e dobre só se as medições mandarem.",
        "start with 10% to 15% of the chunk size, and double only if the measurements demand it",
    ),
}

# The first 60 characters of the five chunks the article prints for its 200/40 cut.
OPENINGS = [
    "MANUAL DE OPERAÇÕES\n\n1. Escopo\nEste manual descreve o proced",
    "ência\nA inspeção visual ocorre a cada 30 dias. A medição de ",
    "3. Tabela de tolerância\n| Medida | Unidade | Limite | Ação |",
    "a carga |\n| Ruído | dB | 92 | Revisar o isolamento |\n| Desal",
    "esponsável e valor obtido. Registros\nincompletos não são ace",
]

# The article's word counts (`len(text.split())`) of its five 200/40 chunks.
WORD_COUNTS = [31, 36, 45, 40, 13]


def quote(key: str) -> str:
    """One line: the article's words, then their English rendering."""
    said, meaning = QUOTES[key]
    return f"the article: '{said}'\n             ({meaning})"


def against_openings(spans: list[tuple[int, int]], text: str) -> str:
    """Whether our windows open as the article's five printed chunks do."""
    same = [text[a:b][:60] for a, b in spans] == OPENINGS
    return f"first 60 characters equal the article's five printed lines: {same}"


def against_word_counts(counts: list[int]) -> Claim:
    """Print the article's word counts beside ours, and claim they are the same."""
    print("the article's word counts:", WORD_COUNTS, "| ours:", counts)
    return claim(
        "article-word-counts-match",
        "our word counts of the five Portuguese chunks are the article's",
        holds=list(counts) == WORD_COUNTS,
        evidence=f"{WORD_COUNTS}",
    )
