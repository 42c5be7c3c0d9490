"""Every figure `chunklab.teaching.report` draws, on the data the notebooks give it (issue 27): no
legend box covers a plotted point (a marker, a dot, a bar), every axis is labelled, and two equal
measures on one row of a dot plot stay both visible."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from conftest import DATA  # noqa: E402
from matplotlib.collections import PathCollection  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from chunklab import FixedSizeChunker, load_document, read_document  # noqa: E402
from chunklab.chunkers.markdown import MarkdownChunker  # noqa: E402
from chunklab.chunkers.semantic import SemanticChunker  # noqa: E402
from chunklab.chunkers.structural import StructuralChunker  # noqa: E402
from chunklab.chunkers.tables import LinearizedChunker, orphans  # noqa: E402
from chunklab.documents.series import load_topic_boundaries  # noqa: E402
from chunklab.embeddings.static import WordLlamaEmbedder  # noqa: E402
from chunklab.evaluation.experiment import real_strategies, run_experiment, size_sweep  # noqa: E402
from chunklab.evaluation.questions import load_question_file  # noqa: E402
from chunklab.evaluation.recall import prefix_cost  # noqa: E402
from chunklab.retrieval.retrievers import RETRIEVERS, BM25Retriever  # noqa: E402
from chunklab.teaching import report  # noqa: E402
from chunklab.tokens.counters import cl100k, word_count  # noqa: E402


@pytest.fixture(scope="module")
def experiment():
    """The rows of `chunklab experiment --docs data --questions data/example.questions.yaml`."""
    names = ["travel_policy", "18f-work-schedules", "18f-leave"]
    documents = {n: read_document(DATA / f"{n}.md", doc_id=n) for n in names}
    questions = load_question_file(DATA / "example.questions.yaml", documents)
    retrievers = {n: RETRIEVERS[n]() for n in ("overlap", "bm25", "wordllama")}
    rows = run_experiment(documents, questions, real_strategies(), retrievers, progress=False)
    return documents, questions, rows


def overlap_sweep(_):
    sweep = report.overlap_sweep(load_document("manual"), 200, range(0, 140, 20), ["0,08"])
    return report.plot_overlap_sweep(sweep, "overlap")


def units_per_chunk(_):
    naive = FixedSizeChunker(size=200, overlap=0)
    counters = {"words": word_count, "cl100k": cl100k}
    frames = {
        language: report.chunk_frame(naive.split(load_document(name)), counters)
        for language, name in (("Portuguese", "manual"), ("English", "manual_en"))
    }
    return report.plot_units_per_chunk(frames, ["chars", "words", "cl100k"], "units")


def size_histograms(_):
    schedules = load_document("work_schedules")
    strategies = {
        "fixed 800 chars": FixedSizeChunker(size=800, overlap=0).split(schedules),
        "structural 800": StructuralChunker(size=800).split(schedules),
        "markdown 200 tokens": MarkdownChunker(max_tokens=200).split(schedules),
    }
    return report.plot_size_histograms(strategies, cl100k, "sizes")


def recall_vs_tokens(_):
    rows = pd.DataFrame(
        [
            {"retriever": r, "mode": m, "k": k, "fact_recall": min(1, 0.3 * k ** (0.5 + i / 4))}
            | {"tokens_to_model": 60 * k * (i + 1)}
            for r in ("bm25", "wordllama")
            for i, m in enumerate(("children", "small-to-big", "whole sections"))
            for k in (1, 3, 5)
        ]
    )
    return report.plot_recall_vs_tokens(rows, "recall")


def similarity(_):
    topics = load_document("topics")
    chunker = SemanticChunker(embedder=WordLlamaEmbedder(), breakpoint="percentile", percentile=80)
    units, sims = chunker.similarities(topics)
    starts = [a for a, _ in units]
    true_cuts = [starts.index(s) - 1 for s in load_topic_boundaries("topics")[1:]]
    cutoff = float(pd.Series(sims).quantile(0.2))
    return report.plot_similarity(
        sims, chunker.cuts(sims), true_cuts, cutoff, "WordLlama", line_label="80th percentile"
    )


def orphan_bars(_):
    documents = {"manual": load_document("manual"), "schedules": load_document("work_schedules")}
    cutters = {
        "fixed 200/40": FixedSizeChunker(size=200, overlap=40),
        "markdown 60": MarkdownChunker(max_tokens=60),
        "linearized": LinearizedChunker(size=200),
    }
    counts = pd.DataFrame(
        {
            n: {d: orphans(c.split(doc), doc) for d, doc in documents.items()}
            for n, c in cutters.items()
        }
    )
    return report.plot_orphans(counts, "orphans")


def format_kept_bars(_):
    kept = pd.DataFrame(
        [
            {"document": d, "format": f, "headings": h, "words": w}
            for d, f, h, w in [
                ("a", "html", 1.0, 0.97),
                ("a", "pdf", 0.5, 0.9),
                ("b", "pdf", 0.0, 1.0),
            ]
        ]
    )
    return report.plot_format_kept(kept, "what each format keeps")


def ranking_vs_content(experiment):
    return report.plot_ranking_vs_content(report.summary_frame(experiment[2]), "complete")


def ranking_vs_iou(experiment):
    summary = report.summary_frame(experiment[2])
    return report.plot_ranking_vs_content(summary, "iou", y="char_iou")


def content_vs_tokens(experiment):
    return report.plot_content_vs_tokens(report.summary_frame(experiment[2]), "tokens")


def size_sweep_lines(experiment):
    documents, questions, _ = experiment
    sweep = pd.DataFrame(size_sweep(documents, questions, BM25Retriever(), sizes=(50, 100, 200)))
    return report.plot_size_sweep(sweep, "sweep")


def prefix_cost_bars(experiment):
    frame = pd.DataFrame(prefix_cost(list(experiment[0].values()), max_tokens=100))
    return report.plot_prefix_cost(frame.set_index("prefix"), "prefix cost")


def benchmark_corpora(experiment):
    """Notebook 10's figure on a made-up frame of the shape the notebook builds (two cuts)."""
    rows = []
    for k, cut in enumerate(("a 200", "b 150")):
        for j, corpus in enumerate(("chatlogs", "finance", "pubmed")):
            row = {"cut": cut, "corpus": corpus}
            for m in ("recall", "precision_omega"):
                value = 40.0 + 10 * j + 5 * k
                row.update({m: value, f"{m}_low": value - 3, f"{m}_high": value + 3})
            rows.append(row)
    return report.plot_benchmark_corpora(pd.DataFrame(rows), "per corpus")


def sentence_windows_strip(experiment):
    """03b's picture of the idea: three hits' windows over thirteen sentences, overlapping."""
    return report.plot_windows([(4, 10, 7), (5, 11, 8), (7, 13, 10)], 16, "windows")


FIGURES = [
    overlap_sweep,
    units_per_chunk,
    size_histograms,
    recall_vs_tokens,
    similarity,
    orphan_bars,
    format_kept_bars,
    ranking_vs_content,
    ranking_vs_iou,
    content_vs_tokens,
    size_sweep_lines,
    prefix_cost_bars,
    benchmark_corpora,
    sentence_windows_strip,
]


def test_every_plot_function_of_report_is_drawn_here():
    drawn = {
        "plot_overlap_sweep",
        "plot_units_per_chunk",
        "plot_size_histograms",
        "plot_recall_vs_tokens",
        "plot_similarity",
        "plot_orphans",
        "plot_format_kept",
        "plot_ranking_vs_content",
        "plot_content_vs_tokens",
        "plot_size_sweep",
        "plot_prefix_cost",
        "plot_benchmark_corpora",
        "plot_windows",
    }
    assert {name for name in dir(report) if name.startswith("plot_")} == drawn


def plotted(ax):
    """What an axes plotted, in display coordinates: each marker and dot as a point, each bar as
    its box (lines without markers, spans and guides are not points)."""
    points, boxes = [], []
    for line in ax.lines:
        if line.get_marker() not in (None, "", "None", " ") and line.get_visible():
            points += list(line.get_transform().transform(line.get_xydata()))
    for collection in ax.collections:
        if isinstance(collection, PathCollection) and len(collection.get_offsets()):
            points += list(collection.get_offset_transform().transform(collection.get_offsets()))
    for patch in ax.patches:
        if isinstance(patch, Rectangle) and patch.get_height() and patch.get_width():
            boxes.append(patch.get_window_extent())
    return points, boxes


def legends(fig):
    return [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)


@pytest.mark.parametrize("draw", FIGURES, ids=[f.__name__ for f in FIGURES])
def test_no_legend_covers_a_point_and_every_axis_is_labelled(draw, experiment):
    fig = draw(experiment)
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        canvas = Bbox.from_bounds(0, 0, *fig.canvas.get_width_height())
        for legend in legends(fig):
            box = legend.get_window_extent(renderer)
            assert canvas.contains(box.x0, box.y0) and canvas.contains(box.x1, box.y1), (
                "the legend is cut off by the figure's edge"
            )
            for ax in fig.axes:
                points, bars = plotted(ax)
                covered = [p for p in points if box.contains(*p)]
                assert not covered, f"{ax.get_title()!r}: the legend covers {len(covered)} points"
                assert not any(box.overlaps(b) for b in bars), f"{ax.get_title()!r}: covers a bar"
        for ax in fig.axes:
            twins = [
                o
                for o in ax.get_shared_x_axes().get_siblings(ax)
                if o.get_position().bounds == ax.get_position().bounds
            ]
            assert any(o.get_xlabel().strip() for o in twins), f"{ax.get_title()!r}: no x label"
            shared_y = ax.get_shared_y_axes().get_siblings(ax)
            assert any(o.get_ylabel().strip() for o in shared_y), f"{ax.get_title()!r}: no y label"
    finally:
        plt.close(fig)


def test_two_equal_measures_on_a_dot_plot_row_are_both_visible():
    """The ranking dot is drawn larger and hollow around the content diamond: when they are equal
    the ring shows around the diamond, neither hides the other."""
    summary = pd.DataFrame(
        [{"strategy": "a", "retriever": "bm25", "reached": 0.5, "complete": 0.5}]
    ).set_index(["strategy", "retriever"])
    fig = report.plot_ranking_vs_content(summary, "equal")
    try:
        fig.canvas.draw()
        ranking, content = [c for c in fig.axes[0].collections if isinstance(c, PathCollection)]
        assert (ranking.get_offsets() == content.get_offsets()).all()
        assert ranking.get_sizes()[0] > 2 * content.get_sizes()[0]
        assert len(ranking.get_facecolors()) == 0 or ranking.get_facecolors()[0][3] == 0
    finally:
        plt.close(fig)


def test_the_format_chart_draws_each_share_in_its_documents_panel():
    fig = format_kept_bars(None)
    try:
        heights = [sorted(p.get_height() for p in ax.patches) for ax in fig.axes]
        assert [ax.get_title() for ax in fig.axes] == ["a", "b"]
        assert heights == [[0.5, 0.9, 0.97, 1], [0, 1]]
    finally:
        plt.close(fig)


def diagram_problems(fig) -> list[str]:
    """What is wrong with a drawn pipeline diagram: a label spilling out of its box, or two boxes
    overlapping."""
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = {p.get_gid(): p.get_window_extent(renderer) for p in ax.patches if p.get_gid()}
    problems = []
    for text in ax.texts:
        gid = text.get_gid() or ""
        key = gid.split(":")[0]
        if key in boxes:
            extent, box = text.get_window_extent(renderer), boxes[key]
            if not (
                box.x0 <= extent.x0
                and extent.x1 <= box.x1
                and box.y0 <= extent.y0
                and extent.y1 <= box.y1
            ):
                problems.append(f"{gid} spills out of its box")
    keys = sorted(boxes)
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            if boxes[a].overlaps(boxes[b]):
                problems.append(f"boxes {a} and {b} overlap")
    return problems


def test_the_pipeline_diagram_draws_the_sketch_whole_and_legibly():
    fig = report.pipeline_diagram()
    try:
        words = "\n".join(t.get_text() for t in fig.axes[0].texts).lower()
        for stage in (
            "pdf / docx / html",
            "extraction",
            "block parser",
            "section tree",
            "child chunks",
            "parent sections",
            "search",
            "dedupe parent ids",
        ):
            assert stage in words, f"the sketch's {stage!r} stage is missing"
        arrows = [a.get_gid() for a in fig.axes[0].texts if "->" in (a.get_gid() or "")]
        assert "tree->children" in arrows and "tree->parents" in arrows
        assert "parents->dedupe" in arrows, "parents are fetched by parent_id at the end"
        assert diagram_problems(fig) == []
    finally:
        plt.close(fig)


def test_the_diagram_check_catches_an_overlap_and_a_spilling_label(monkeypatch):
    from chunklab.teaching import figures

    boxes = list(figures.PIPELINE_BOXES)
    boxes[1] = ("extract", "a label far too long to fit inside any box of this size", 2.5, 7.6, "")
    monkeypatch.setattr(figures, "PIPELINE_BOXES", boxes)
    fig = figures.pipeline_diagram()
    try:
        problems = diagram_problems(fig)
        assert "boxes extract and files overlap" in problems
        assert "extract:label spills out of its box" in problems
    finally:
        plt.close(fig)


def test_a_legend_names_what_each_measure_judges():
    from chunklab.teaching.figures import measure_kind

    assert [measure_kind(m) for m in ("reached", "complete", "char_iou", "fact_recall")] == [
        "ranking",
        "content",
        "characters",
        "content",
    ]
