import textwrap

import pytest
from conftest import ROOT, run_cli

from chunklab import load_document, load_questions
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.documents.series import list_documents
from chunklab.evaluation.article import article_table, format_article_table
from chunklab.evaluation.experiment import DECISIONS, plain, real_strategies, run_experiment
from chunklab.evaluation.metrics import char_scores, coverage_at_k, reciprocal_rank
from chunklab.evaluation.questions import QuestionFileError, load_question_file
from chunklab.retrieval.retrievers import BM25Retriever, OverlapRetriever

ARTICLE = """\
fixed_size    5 chunks  coverage@3 7/10  complete@1 5/10  mid-line 3  orphans 1
structural   11 chunks  coverage@3 4/10  complete@1 3/10  mid-line 0  orphans 4
structural+   6 chunks  coverage@3 7/10  complete@1 6/10  mid-line 0  orphans 1
linearized    5 chunks  coverage@3 9/10  complete@1 5/10  mid-line 0  orphans 0"""


def docs():
    return {n: load_document(n) for n in list_documents()}


def test_the_articles_table_exactly(manual):
    rows = article_table(manual, load_questions("manual"))
    assert format_article_table(rows) == ARTICLE
    assert [r["tolerant@3"] for r in rows] == [0.70, 0.40, 0.70, 0.90]


def test_cli_article_table():
    done = run_cli("experiment", "--article")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith(ARTICLE + "\n")


def test_every_gold_span_is_the_text_it_quotes():
    documents = docs()
    questions = load_question_file(ROOT / "data" / "experiment.questions.yaml", documents)
    assert len(questions) >= 40 and len({q.document for q in questions}) >= 5
    for q in questions:
        text = documents[q.document].text
        assert q.gold, q.id
        for span in q.gold:
            assert text[span.start : span.end] == span.text, q.id
        for fact in q.facts:
            assert fact.lower() in text.lower(), q.id


def write(tmp_path, body):
    path = tmp_path / "q.yaml"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "body, message",
    [
        (
            "questions:\n  - {id: a, document: manual, question: x, facts: [nada disso]}\n",
            "question a: fact 'nada disso' is not in",
        ),
        (
            "questions:\n  - {id: b, document: manual, question: x}\n",
            "question b: missing field 'facts'",
        ),
        (
            "questions:\n  - {id: c, document: nope, question: x, facts: [a]}\n",
            "question c: unknown document 'nope'",
        ),
        (
            "questions:\n  - {id: d, document: manual, question: x, facts: [30 dias], "
            "gold: [{start: 0, end: 5, text: abc}]}\n",
            "question d: gold span 0:5",
        ),
        (
            "questions:\n"
            "  - {id: e, document: manual, question: x, facts: [30 dias], gold: [cada]}\n",
            "occurs 3 times",
        ),
        ("questions: [\n", "not valid YAML"),
        ("just: text\n", "non-empty list 'questions'"),
    ],
)
def test_bad_question_files_name_the_question(tmp_path, body, message):
    with pytest.raises(QuestionFileError, match="q.yaml") as error:
        load_question_file(write(tmp_path, body), docs())
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_quote_is_located_and_facts_stand_in_for_missing_gold(tmp_path):
    path = write(
        tmp_path,
        """\
        questions:
          - {id: a, document: manual.md, question: q, facts: [30 dias],
             gold: [A inspeção visual ocorre a cada 30 dias.]}
          - {id: b, document: manual, question: q, facts: [90 DIAS]}
        """,
    )
    a, b = load_question_file(path, docs())
    manual = load_document("manual").text
    assert manual[a.gold[0].start : a.gold[0].end] == "A inspeção visual ocorre a cada 30 dias."
    assert b.document == "manual" and b.gold[0].text == "90 dias"


def test_ranking_and_character_metrics():
    assert (
        coverage_at_k(["x", "y", "z"], {"z"}, 2) == 0.0
        and coverage_at_k(["x", "y", "z"], {"z"}, 3) == 1.0
    )
    assert (
        reciprocal_rank(["x", "y", "z"], {"y", "z"}) == 0.5 and reciprocal_rank(["x"], {"q"}) == 0.0
    )
    # retrieved 0-10 and 5-15 (overlap counts once: 15 chars), gold 10-20
    scores = char_scores([(0, 10), (5, 15)], [(10, 20)])
    assert scores == {"char_recall": 0.5, "char_precision": 5 / 15, "char_iou": 5 / 20}
    assert char_scores([], [(0, 4)])["char_recall"] == 0.0


def test_runner_rows_are_tidy_and_deterministic():
    documents = docs()
    questions = load_question_file(ROOT / "data" / "experiment.questions.yaml", documents)[:12]
    strategies = {"fixed": plain(FixedSizeChunker())}
    retrievers = {"overlap": OverlapRetriever(), "bm25": BM25Retriever()}
    first = run_experiment(documents, questions, strategies, retrievers, ks=(1, 3))
    assert first == run_experiment(documents, questions, strategies, retrievers, ks=(1, 3))
    assert len(first) == 12 * 2 * 2
    for row in first:
        assert (
            0 <= row["char_iou"] <= row["char_recall"] <= 1
            or row["char_iou"] <= row["char_precision"]
        )
        assert row["complete"] <= row["answerable"]
    by = {(r["retriever"], r["question"], r["k"]): r for r in first}
    # More results never lose a fact.
    assert all(by[(r, q, 3)]["fact_recall"] >= by[(r, q, 1)]["fact_recall"] for r, q, _ in by)


def test_cli_on_your_own_documents_prints_the_table_and_writes_charts(tmp_path):
    out = tmp_path / "out"
    done = run_cli(
        "experiment",
        "--docs",
        "data",
        "--questions",
        "data/example.questions.yaml",
        "--out",
        str(out),
        "--retrievers",
        "bm25",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert (
        lines[0].split()[:3] == ["strategy", "retriever", "chunks"]
        and len(lines) == 1 + len(real_strategies()) + 1
    )
    assert {p.name for p in out.iterdir()} == {
        "rows.csv",
        "ranking_vs_content.png",
        "ranking_vs_iou.png",
    }
    assert (out / "ranking_vs_content.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["--docs", "data", "--questions", "BAD"],
            "question broken: fact 'no such words' is not in",
        ),
        (["--docs", "data"], "give --article, or both --docs DIR and --questions FILE.yaml"),
        (
            [
                "--docs",
                "data",
                "--questions",
                "data/example.questions.yaml",
                "--retrievers",
                "grep",
            ],
            "--retrievers: unknown grep",
        ),
        (["--article", "--docs", "data"], "--article runs on the series' manual"),
    ],
)
def test_cli_experiment_mistakes_are_one_line_and_exit_2(tmp_path, args, message):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "questions:\n  - {id: broken, document: manual, question: q, facts: [no such words]}\n"
    )
    done = run_cli("experiment", *[str(bad) if a == "BAD" else a for a in args])
    stderr = done.stderr.decode()
    assert done.returncode == 2 and stderr.count("\n") == 1 and message in stderr, stderr


def test_the_readme_question_file_example_loads(tmp_path):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = readme.split("```yaml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "readme.yaml"
    path.write_text(example, encoding="utf-8")
    first, second = load_question_file(path, docs())
    assert [s.text for s in first.gold] == [
        "| City | Daily limit (USD) | Lodging cap (USD) |",
        "| New York | 105 | 350 |",
    ]
    assert second.gold[0].text == "within 15 days"


def test_progress_goes_to_stderr_only_when_asked(capsys):
    documents = docs()
    questions = load_question_file(ROOT / "data" / "experiment.questions.yaml", documents)[:3]
    run_experiment(
        documents,
        questions,
        {"fixed": plain(FixedSizeChunker())},
        {"overlap": OverlapRetriever()},
        ks=(1,),
        progress=True,
    )
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.endswith("experiment: 1/1 runs\n")
    run_experiment(
        documents,
        questions,
        {"fixed": plain(FixedSizeChunker())},
        {"overlap": OverlapRetriever()},
        ks=(1,),
        progress=False,
    )
    assert capsys.readouterr().err == ""


def test_the_decision_tables_evidence_still_holds():
    """The DECISIONS rows quote results of this series; if one stops being true, this fails."""
    documents = docs()
    questions = load_question_file(ROOT / "data" / "experiment.questions.yaml", documents)
    rows = run_experiment(
        documents,
        [q for q in questions if q.document == "topics"],
        real_strategies(),
        {"bm25": BM25Retriever()},
        ks=(3,),
    )
    assert "every cut is complete at k=3" in DECISIONS[0]["evidence"]
    assert rows and all(r["complete"] == 1.0 for r in rows)
    assert "orphans 1/4/1/0" in DECISIONS[2]["evidence"]
    assert [
        r["orphans"] for r in article_table(load_document("manual"), load_questions("manual"))
    ] == [1, 4, 1, 0]
    manual = [q for q in questions if q.document == "manual_md"]
    strategies = {
        k: v for k, v in real_strategies().items() if k in ("markdown+path", "structural+")
    }
    complete = {}
    for r in run_experiment(documents, manual, strategies, {"bm25": BM25Retriever()}, ks=(3,)):
        complete.setdefault(r["strategy"], []).append(r["complete"])
    assert (
        "manual_md complete at k=3 is 1.0 for markdown+path, below it for structural+"
        in DECISIONS[1]["evidence"]
    )
    assert min(complete["markdown+path"]) == 1.0 and sum(complete["structural+"]) < len(manual)
    assert "no orphans for linearized and every MarkdownChunker mode" in DECISIONS[2]["evidence"]
    everything = run_experiment(
        documents,
        questions,
        {k: v for k, v in real_strategies().items() if k.startswith(("markdown", "linearized"))},
        {"bm25": BM25Retriever()},
        ks=(3,),
    )
    assert all(r["orphans"] == 0 for r in everything)


def test_reached_needs_half_the_evidence_and_touched_one_character():
    from chunklab.contracts import Chunk
    from chunklab.evaluation.metrics import reaches, touches

    gold = [(100, 140), (200, 220)]  # 60 characters of evidence

    def span(a, b):
        return Chunk(
            chunk_id="x", doc_id="d", ordinal=0, text="x" * (b - a), token_count=1, start=a, end=b
        )

    assert touches(span(139, 150), gold) and not reaches(span(139, 150), gold)
    assert reaches(span(100, 130), gold)  # exactly half
    assert not reaches(span(100, 129), gold)
    assert reaches(span(110, 215), gold) and not touches(span(0, 100), gold)


def test_bootstrap_interval_brackets_the_mean_and_is_reproducible():
    from chunklab.evaluation.metrics import bootstrap_interval

    values = [1.0] * 30 + [0.0] * 13
    lo, hi = bootstrap_interval(values)
    assert lo < sum(values) / len(values) < hi and (lo, hi) == bootstrap_interval(values)
    assert bootstrap_interval([1.0] * 10) == (1.0, 1.0)
