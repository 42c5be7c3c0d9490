"""Tables and plots for the notebooks. With `figures` (the experiment's figures, re-exported here),
the only module that imports pandas and matplotlib.

Everything here turns library results into a DataFrame or a figure; nothing here decides how to
chunk. Import it only where a table or a picture is wanted (`from chunklab import report`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.ticker import MaxNLocator

from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.contracts import Chunk, Document
from chunklab.evaluation.experiment import DECISIONS, summarize
from chunklab.evaluation.metrics import chunks_with_all, indexed_ratio, split_lines, starts_mid_line
from chunklab.teaching.cuts import CutView as CutView
from chunklab.teaching.cuts import show_cuts as show_cuts
from chunklab.teaching.figures import legend_outside
from chunklab.teaching.figures import pipeline_diagram as pipeline_diagram
from chunklab.teaching.figures import plot_benchmark_corpora as plot_benchmark_corpora
from chunklab.teaching.figures import plot_content_vs_tokens as plot_content_vs_tokens
from chunklab.teaching.figures import plot_ranking_vs_content as plot_ranking_vs_content
from chunklab.teaching.figures import plot_size_sweep as plot_size_sweep
from chunklab.tokens.counters import TokenCounter

pd.set_option("display.width", 120)
pd.set_option("display.max_colwidth", 60)


def chunk_frame(chunks: Sequence[Chunk], counters: Mapping[str, TokenCounter]) -> pd.DataFrame:
    """One row per chunk: its span, its length in characters and in each counter's units."""
    rows = []
    for c in chunks:
        row: dict[str, int | str] = {
            "ordinal": c.ordinal,
            "start": c.start,
            "end": c.end,
            "chars": len(c.text),
        }
        row.update({name: count(c.text) for name, count in counters.items()})
        row["begins"] = c.text[:30]
        rows.append(row)
    return pd.DataFrame(rows).set_index("ordinal")


def overlap_sweep(
    doc: Document, size: int, overlaps: Sequence[int], together: Sequence[str]
) -> pd.DataFrame:
    """What each overlap buys (lines kept whole) and costs (characters indexed), at one size.

    `together` are strings that must share a chunk to be useful, e.g. a value and its header.
    """
    rows = []
    for overlap in overlaps:
        chunks = FixedSizeChunker(size=size, overlap=overlap).split(doc)
        rows.append(
            {
                "overlap": overlap,
                "chunks": len(chunks),
                "indexed_x": round(indexed_ratio(chunks, doc), 2),
                "lines_split": len(split_lines(chunks, doc)),
                "mid_line_starts": starts_mid_line(chunks, doc),
                "together": bool(chunks_with_all(chunks, together)),
            }
        )
    return pd.DataFrame(rows).set_index("overlap")


def plot_overlap_sweep(sweep: pd.DataFrame, title: str):
    """Lines split (what overlap fixes), and the questions answerable if the sweep has them, against
    characters indexed (what it costs)."""
    fig, left = plt.subplots(figsize=(7, 3.2))
    left.plot(sweep.index, sweep["lines_split"], marker="o", color="tab:blue", label="lines split")
    left.set_xlabel("overlap (characters)")
    left.set_ylabel("lines split across chunks", color="tab:blue")
    if "answerable" in sweep:  # the questions answered move with the grid, not with the overlap
        left.plot(sweep.index, sweep["answerable"], ".-", color="tab:green", label="answerable")
        left.set_ylabel("lines split (blue), questions answerable (green)")
    left.yaxis.set_major_locator(MaxNLocator(integer=True))
    right = left.twinx()
    right.plot(sweep.index, sweep["indexed_x"], "s-", color="tab:red", label="indexed (right)")
    right.set_ylabel("characters indexed / document", color="tab:red")
    left.set_title(title)
    left.legend(handles=[*left.lines, *right.lines], loc=(0.7, 0.12), fontsize="small")
    fig.tight_layout()
    return fig


def plot_units_per_chunk(frames: Mapping[str, pd.DataFrame], units: Sequence[str], title: str):
    """Side-by-side bars: each chunk's size in each unit, one panel per document rendering."""
    fig, axes = plt.subplots(1, len(frames), figsize=(4.2 * len(frames) + 1.2, 3.2), sharey=True)
    axes = [axes] if len(frames) == 1 else list(axes)
    width = 0.8 / len(units)
    for ax, (label, frame) in zip(axes, frames.items(), strict=True):
        for k, unit in enumerate(units):
            positions = [i + k * width for i in range(len(frame))]
            ax.bar(positions, frame[unit], width=width, label=unit)
        ax.set_xticks([i + width * (len(units) - 1) / 2 for i in range(len(frame))])
        ax.set_xticklabels([f"#{o}" for o in frame.index])
        ax.set_title(label)
        ax.set_xlabel("chunk")
    axes[0].set_ylabel("size")
    legend_outside(axes[-1])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def blocks_frame(blocks, source: str) -> pd.DataFrame:
    """One row per block: kind, line span, character span, and how it begins."""
    rows = [
        {
            "kind": b.kind,
            "lines": f"{b.first_line + 1}-{b.last_line + 1}",
            "start": b.start,
            "end": b.end,
            "begins": b.text(source).split("\n")[0][:40],
        }
        for b in blocks
    ]
    return pd.DataFrame(rows)


def strategy_sizes(results: Mapping[str, Sequence[Chunk]], count: TokenCounter) -> pd.DataFrame:
    """Per strategy: number of chunks and the spread of their sizes, counted by one counter."""
    rows = []
    for name, chunks in results.items():
        sizes = sorted(count(c.text) for c in chunks)
        rows.append(
            {
                "strategy": name,
                "chunks": len(sizes),
                "min": sizes[0],
                "median": sizes[len(sizes) // 2],
                "max": sizes[-1],
                "tokens_indexed": sum(sizes),
            }
        )
    return pd.DataFrame(rows).set_index("strategy")


def plot_size_histograms(
    results: Mapping[str, Sequence[Chunk]], count: TokenCounter, title: str, bins: int = 12
):
    """Chunk-size histograms, one panel per strategy, on a shared token axis."""
    sizes = {name: [count(c.text) for c in chunks] for name, chunks in results.items()}
    top = max(max(v) for v in sizes.values())
    edges = [top * k / bins for k in range(bins + 1)]
    fig, axes = plt.subplots(
        1, len(sizes), figsize=(3.1 * len(sizes), 2.8), sharex=True, sharey=True
    )
    for ax, (name, values) in zip(axes, sizes.items(), strict=True):
        ax.hist(values, bins=edges, color="tab:blue", edgecolor="white")
        ax.set_title(f"{name} ({len(values)})", fontsize=10)
        ax.set_xlabel("cl100k tokens")
    axes[0].set_ylabel("chunks")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_recall_vs_tokens(
    rows: pd.DataFrame,
    title: str,
    baseline: str | None = None,
    ylim: tuple[float, float] = (0, 1.08),
    label_ks: Sequence[int] | None = None,
    label_modes: Sequence[str] | None = None,
):
    """Fact recall against tokens handed to the model per query, one line per mode, points = k.

    `rows` has columns retriever, mode, k, fact_recall, tokens_to_model; one panel per retriever.
    `baseline`, a mode, is drawn dashed with hollow markers and its labels above its points, so
    a point where another mode lands on it stays visible, and the labels of the other modes
    alternate below, so two near points of one line do not print over each other. `ylim`
    narrows the recall axis when every point sits high, so lines close together separate.
    `label_ks` labels only those k (the line's order gives the rest) where labels would crowd,
    the smallest above its point and the others below. `label_modes` labels only those modes'
    points, where the lines of other modes pass so near that their labels would print over them.
    """
    retrievers = list(dict.fromkeys(rows["retriever"]))
    fig, axes = plt.subplots(
        1, len(retrievers), figsize=(4.6 * len(retrievers) + 1.6, 3.4), sharey=True
    )
    axes = [axes] if len(retrievers) == 1 else list(axes)
    for ax, name in zip(axes, retrievers, strict=True):
        part = rows[rows["retriever"] == name]
        for mode, marker in zip(dict.fromkeys(part["mode"]), "osD^v", strict=False):
            line = part[part["mode"] == mode]
            style = {}
            if mode == baseline:
                style = {"linestyle": "--", "markerfacecolor": "none", "markersize": 11}
            ax.plot(
                line["tokens_to_model"], line["fact_recall"], marker=marker, label=mode, **style
            )
            for n, (_, r) in enumerate(line.iterrows()):
                if label_ks is not None and r["k"] not in label_ks:
                    continue
                if label_modes is not None and mode not in label_modes:
                    continue
                ax.annotate(  # below and above in turn: neighbouring points' labels never touch
                    f"k={r['k']}",
                    (r["tokens_to_model"], r["fact_recall"]),
                    fontsize=7,
                    textcoords="offset points",
                    xytext=(3, 6 if mode == baseline else (-9 if n % 2 == 0 else 4))
                    if label_ks is None or mode == baseline
                    else (3, 4 if r["k"] == min(label_ks) else -9),  # first k above, last below
                )
        ax.set_title(name)
        ax.set_xlabel("cl100k tokens handed to the model per query")
        ax.set_ylim(*ylim)
    axes[0].set_ylabel("fact recall")
    legend_outside(axes[-1])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_similarity(
    similarities,
    cuts: Sequence[int],
    true_cuts: Sequence[int],
    line: float,
    title: str,
    line_label: str = "threshold",
):
    """Neighbour similarity along the document: the rule's line, the chosen cuts, true boundaries.

    Point i is the similarity between unit i and unit i + 1; a cut at i falls between them.
    """
    fig, ax = plt.subplots(figsize=(9.5, 3.2))
    xs = list(range(len(similarities)))
    ax.plot(xs, similarities, marker="o", color="tab:blue", label="similarity to the next unit")
    ax.axhline(line, color="tab:gray", linestyle="--", label=line_label)
    for n, i in enumerate(true_cuts):
        ax.axvline(
            i,
            color="tab:green",
            alpha=0.35,
            linewidth=6,
            label="true topic change" if n == 0 else None,
        )
    ax.scatter(
        list(cuts), [similarities[i] for i in cuts], color="tab:red", zorder=3, s=60, label="cut"
    )
    ax.set_xlabel("gap index (gap i lies after unit i)")
    ax.set_ylabel("cosine similarity")
    ax.set_title(title)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def _grouped_bars(
    ax, frame: pd.DataFrame, columns: Sequence[str], labels: Mapping[str, str]
) -> None:
    """One group of bars per row of `frame`, one bar per column, ticks labelled by the index."""
    width = 0.8 / len(columns)
    for k, column in enumerate(columns):
        ax.bar(
            [i + k * width for i in range(len(frame))],
            frame[column],
            width=width,
            label=labels[column],
        )
    ax.set_xticks([i + width * (len(columns) - 1) / 2 for i in range(len(frame))])
    ax.set_xticklabels(frame.index, fontsize=8)


def plot_orphans(counts: pd.DataFrame, title: str):
    """Orphans as a strategy x document grid, each count written in its cell: most counts are 0,
    and a grid shows a zero as plainly as a seven, where bars of height zero draw nothing."""
    grid = counts.T  # strategies down, documents across
    fig, ax = plt.subplots(figsize=(1.3 * grid.shape[1] + 3.2, 0.38 * grid.shape[0] + 1.2))
    ax.imshow(grid.to_numpy(), cmap="Reds", aspect="auto", vmin=0, vmax=max(1, grid.max().max()))
    for row, strategy in enumerate(grid.index):
        for column, document in enumerate(grid.columns):
            ax.text(column, row, str(grid.loc[strategy, document]), ha="center", va="center")
    ax.set_xticks(range(grid.shape[1]), list(grid.columns), rotation=20, ha="right")
    ax.set_yticks(range(grid.shape[0]), list(grid.index))
    ax.set_xlabel("document")
    ax.set_ylabel("strategy")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def plot_format_kept(kept: pd.DataFrame, title: str):
    """What each format keeps of its source (notebook 08): one panel per document, one group of
    bars per format, one bar per measure (a share from 0 to 1: headings, table rows, words).

    `kept` has the columns `document` and `format` and one numeric column per measure.
    """
    documents = list(dict.fromkeys(kept["document"]))
    measures = [c for c in kept.columns if c not in ("document", "format")]
    fig, axes = plt.subplots(
        1, len(documents), figsize=(3.4 * len(documents) + 1.6, 3.0), sharey=True
    )
    axes = [axes] if len(documents) == 1 else list(axes)
    for ax, document in zip(axes, documents, strict=True):
        part = kept[kept["document"] == document].set_index("format")
        _grouped_bars(ax, part, measures, {m: m for m in measures})
        ax.set_ylim(0, 1.05)
        ax.set_title(document, fontsize=9)
        ax.set_xlabel("format")
    axes[0].set_ylabel("share of the source kept")
    legend_outside(axes[-1])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


# --- the experiment (notebook 07) -----------------------------------------------------------------


def experiment_frame(rows: Sequence[dict]) -> pd.DataFrame:
    """The runner's rows as one tidy DataFrame: a row per (strategy, retriever, k, question)."""
    return pd.DataFrame(list(rows))


def summary_frame(rows: Sequence[dict] | pd.DataFrame, k: int = 3) -> pd.DataFrame:
    """`evaluation.experiment.summarize` as a DataFrame indexed by (strategy, retriever)."""
    if isinstance(rows, pd.DataFrame):
        rows = rows.to_dict("records")
    return pd.DataFrame(summarize(rows, k)).set_index(["strategy", "retriever"])


def decision_frame() -> pd.DataFrame:
    """The decision table (the article's section 10), each row with the evidence in this series."""
    return pd.DataFrame(DECISIONS).set_index("document type")


def plot_prefix_cost(frame: pd.DataFrame, title: str):
    """Bars: prefix tokens per chunk, and what they cost per query at each k, per prefix mode."""
    fig, ax = plt.subplots(figsize=(8, 3.2))
    ks = [c for c in frame.columns if c.startswith("k=")]
    _grouped_bars(ax, frame, ks, {k: f"per query, {k}" for k in ks})
    ax.set_xlabel("prefix")
    ax.set_ylabel("prefix tokens handed to the model")
    ax.set_title(title)
    legend_outside(ax)
    fig.tight_layout()
    return fig


def save_figure(figure, path) -> None:
    """Write a figure as PNG and close it, so a script or a notebook does not also display it."""
    figure.savefig(path, dpi=120)
    plt.close(figure)


def runs(numbers: Sequence[int]) -> str:
    """Sorted ints as runs of consecutive values, `[40, 41, 42, 50]` -> `'40-42, 50'`: a sweep of
    200 overlaps printed as a handful of ranges, so the gaps between them are what one sees."""
    groups: list[list[int]] = []
    for n in numbers:
        if groups and n == groups[-1][1] + 1:
            groups[-1][1] = n
        else:
            groups.append([n, n])
    return ", ".join(f"{a}-{b}" if b > a else f"{a}" for a, b in groups)


def plot_windows(windows: Sequence[tuple[int, int, int]], n_sentences: int, title: str):
    """One bar per hit: the sentences its window spans (first to last, both included), the hit
    itself marked. Overlapping windows show at a glance what is handed over twice."""
    fig, ax = plt.subplots(figsize=(9, 0.5 + 0.45 * len(windows)))
    for row, (first, last, hit) in enumerate(windows):
        ax.broken_barh([(first - 0.5, last - first + 1)], (row - 0.35, 0.7), color="#9ecae1")
        ax.broken_barh([(hit - 0.5, 1)], (row - 0.35, 0.7), color="#08519c")
        ax.text(last + 0.7, row, f"sentences {first}-{last}", va="center", fontsize=8)
    ax.set_yticks(range(len(windows)), [f"hit s{hit}" for _, _, hit in windows])
    ax.set_xlim(-0.5, n_sentences - 0.5)
    ax.set_ylim(len(windows) - 0.5, -0.5)
    ax.set_xticks(range(n_sentences))
    ax.set_xlabel("sentence number (dark: the hit; light: its window, 3 sentences each side)")
    ax.set_ylabel("search hit")
    ax.set_title(title)
    fig.tight_layout()
    return fig
