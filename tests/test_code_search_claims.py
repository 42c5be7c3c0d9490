"""The code-search claims' helpers: where two cuts part ways, and a density table's claims."""

import pandas as pd

from chunklab.teaching.code_search_claims import density_claims, where_cuts_part

SOURCE = "def f():\n    return 1\n\n\nif True:\n    x = 2\n"


def test_the_same_cuts_do_not_part():
    assert where_cuts_part(SOURCE, [(0, 20), (23, 43)], [(0, 20), (23, 43)]) is None


def test_cuts_that_part_name_the_next_statement():
    where, kind = where_cuts_part(SOURCE, [(0, 43)], [(0, 20), (23, 43)])
    assert kind == "If"  # the library's first piece ends at line 2; the next statement is the if
    assert "and 2 (library)" in where and "If at line 5" in where


def test_the_literal_200_words_fails_when_code_is_that_dense():
    table = pd.DataFrame(
        {
            "words": [35.0, 34.0, 200.0],
            "cl100k tokens": [65.0, 46.0, 210.0],
            "MiniLM word pieces": [77.0, 44.0, 220.0],
        },
        index=["prose (manual, pt)", "prose (manual, en)", "code"],
    )
    literal, _ = density_claims(table, code="code", portuguese="prose (manual, pt)")
    assert not literal.holds
