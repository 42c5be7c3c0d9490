"""`chunklab benchmark` (issue 26 item 4): the report's columns, the rows as CSV, one-line errors,
Ctrl-C. Precision-Ω alone (`--retriever none`) needs no model, so these run in seconds."""

import csv

from chunklab.cli import benchmarking, main


def test_benchmark_prints_precision_omega_per_corpus_and_writes_the_rows(tmp_path, capsys):
    out = tmp_path / "rows.csv"
    args = ["benchmark", "--strategy", "recursive", "--size", "200", "--retriever", "none"]
    assert main([*args, "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == "recursive 200/0 cl100k: 2386 chunks, top 5 by none"
    # the text-embedding-3-large table's Recursive 200/0 precision-Ω is 29.9
    assert printed[2].split() == ["all", "472", "29.9"]
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["corpus"] for r in rows] == [
        "all",
        "state_of_the_union",
        "wikitexts",
        "finance",
        "chatlogs",
        "pubmed",
    ]
    assert sum(int(r["questions"]) for r in rows[1:]) == 472


def test_a_bad_value_is_one_line_and_exit_code_2(capsys):
    assert main(["benchmark", "--k", "0"]) == 2
    assert capsys.readouterr().err.strip() == (
        "chunklab: error: argument --k: must be at least 1, not 0"
    )
    args = ["benchmark", "--strategy", "tokentext", "--size", "10", "--overlap", "10"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "overlap (10) must be smaller than size (10)" in err


def test_ctrl_c_stops_with_one_line_and_writes_nothing(tmp_path, capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(benchmarking, "evaluate", interrupted)
    out = tmp_path / "rows.csv"
    assert main(["benchmark", "--retriever", "none", "--out", str(out)]) == 130
    assert "interrupted: nothing was written" in capsys.readouterr().err
    assert not out.exists()


def test_any_strategy_runs_its_size_as_its_budget():
    import argparse

    args = argparse.Namespace(size=120, overlap=0, length="minilm")
    assert benchmarking.strategy_keywords("markdown", args) == {
        "max_tokens": 120,
        "counter": "minilm",
    }
    assert benchmarking.strategy_keywords("fixed", args) == {
        "size": 120,
        "overlap": 0,
        "counter": "minilm",
        "unit": "tokens",
    }
