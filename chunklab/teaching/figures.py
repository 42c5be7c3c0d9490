"""The experiment's figures (notebook 07), the series' map (`pipeline_diagram`, notebook 01), and
`legend_outside`, the one place every figure of the series puts its legend: beside the panels,
never over a point. With `report`, the only modules that import matplotlib (and pandas); `report`
re-exports these, so notebooks call `report.plot_*` and `report.pipeline_diagram`."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd

# The x axis of the dot plots: each measure is a mean over questions, between 0 and 1.
SHARE = "mean over questions (0 to 1)"


def legend_outside(ax, **options) -> None:
    """`ax`'s legend to the right of it, top-aligned, outside the plotting area: no legend box can
    cover a point, whatever the data (call `fig.tight_layout()` after, to make room for it)."""
    ax.legend(
        fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **options
    )


def plot_ranking_vs_content(
    summary: pd.DataFrame, title: str, x: str = "reached", y: str = "complete"
):
    """A dot plot, one panel per retriever and one row per strategy: the ranking measure (x) and
    the content measure (y) side by side on the same 0–1 axis, each strategy named on its row.

    A scatter of ten strategies hid points under each other; here a gap between the two dots is
    what the cut costs in content once the search has found the place. The ranking dot is a large
    hollow ring and the content one a small filled diamond, so equal measures show the diamond
    inside the ring: neither hides the other.
    """
    frame = summary.reset_index()
    retrievers = list(dict.fromkeys(frame["retriever"]))
    strategies = list(dict.fromkeys(frame["strategy"]))
    fig, axes = plt.subplots(
        1,
        len(retrievers),
        figsize=(3.6 * len(retrievers) + 2.6, 0.32 * len(strategies) + 1.6),
        sharex=True,
        sharey=True,
    )
    axes = [axes] if len(retrievers) == 1 else list(axes)
    rows = range(len(strategies))
    for ax, name in zip(axes, retrievers, strict=True):
        part = frame[frame["retriever"] == name].set_index("strategy").reindex(strategies)
        ax.hlines(
            rows, part[[x, y]].min(axis=1), part[[x, y]].max(axis=1), color="lightgray", linewidth=2
        )
        ax.scatter(
            part[x],
            rows,
            marker="o",
            s=90,
            facecolors="none",
            edgecolors="tab:blue",
            linewidths=1.5,
            label=f"{x} ({measure_kind(x)})",
            zorder=3,
        )
        ax.scatter(
            part[y],
            rows,
            marker="D",
            s=22,
            color="tab:red",
            label=f"{y} ({measure_kind(y)})",
            zorder=4,
        )
        ax.set_title(name)
        ax.set_xlim(-0.04, 1.04)
        ax.set_xlabel(SHARE, fontsize=8)
        ax.grid(axis="x", color="0.9")
    axes[0].set_yticks(list(rows), strategies, fontsize=8)
    axes[0].set_ylabel("strategy")
    axes[0].invert_yaxis()
    legend_outside(axes[-1])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def measure_kind(measure: str) -> str:
    """What a measure judges, for a legend: the ranking (`reached`, `mrr`), the characters
    (`char_iou`, `char_recall`), or else the content the model reads (`complete`, `fact_recall`)."""
    if measure.startswith("char_"):
        return "characters"
    ranking = measure == "mrr" or measure.startswith("reached")
    return "ranking" if ranking else "content"


def plot_content_vs_tokens(summary: pd.DataFrame, title: str, y: str = "complete"):
    """Per retriever: each strategy's content measure against the tokens it hands the model per
    query, its name written beside its point, with the bootstrap interval of `complete` as a bar.

    Up and to the left is better: more answers for fewer tokens read.
    """
    frame = summary.reset_index()
    retrievers = list(dict.fromkeys(frame["retriever"]))
    fig, axes = plt.subplots(1, len(retrievers), figsize=(4.6 * len(retrievers), 4.2), sharey=True)
    axes = [axes] if len(retrievers) == 1 else list(axes)
    span_x = max(float(frame["tokens_to_model"].max() - frame["tokens_to_model"].min()), 1.0)
    for ax, name in zip(axes, retrievers, strict=True):
        part = frame[frame["retriever"] == name]
        if y == "complete" and {"complete_lo", "complete_hi"} <= set(part.columns):
            ax.vlines(
                part["tokens_to_model"],
                part["complete_lo"],
                part["complete_hi"],
                color="0.8",
                linewidth=3,
            )
        ax.scatter(part["tokens_to_model"], part[y], color="tab:blue", zorder=3, s=25)
        _name_points(ax, part, y, span_x)
        ax.set_title(name)
        ax.set_xlabel("cl100k tokens handed to the model per query")
        ax.grid(color="0.92")
    axes[0].set_ylabel(f"{y} ({measure_kind(y)})")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _name_points(ax, part: pd.DataFrame, y: str, span_x: float) -> None:
    """Each strategy's name beside its point, moved down until it clears the names already
    written near it (with a thin line back to its point when moved)."""
    placed: list[tuple[float, float]] = []
    for _, row in part.sort_values([y, "tokens_to_model"], ascending=False).iterrows():
        x, label_y = float(row["tokens_to_model"]), float(row[y])
        while any(abs(x - px) < 0.22 * span_x and abs(label_y - py) < 0.04 for px, py in placed):
            label_y -= 0.04
        placed.append((x, label_y))
        ax.annotate(
            row["strategy"],
            (x, row[y]),
            xytext=(x + 0.012 * span_x, label_y),
            fontsize=7,
            arrowprops={"arrowstyle": "-", "color": "0.6", "lw": 0.5}
            if label_y != row[y]
            else None,
        )


# Open markers of different shapes: where two strategies' lines coincide, both stay visible.
SWEEP_MARKERS = "osD^v<>ph"


def plot_size_sweep(sweep: pd.DataFrame, title: str):
    """Two panels against chunk size: `complete` and the tokens handed to the model, one line per
    strategy, each with its own open marker (lines that coincide still show every marker)."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, 3.6))
    groups = sweep.groupby("strategy", sort=False)
    for (strategy, part), marker in zip(groups, SWEEP_MARKERS * 4, strict=False):
        part = part.sort_values("size")
        for ax, column in ((left, "complete"), (right, "tokens_to_model")):
            ax.plot(part["size"], part[column], marker=marker, mfc="none", label=strategy)
    sizes = sorted(sweep["size"].unique())
    for ax, label in ((left, "complete@3"), (right, "tokens to the model per query")):
        ax.set_xscale("log", base=2)
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.set_xlim(sizes[0] * 0.8, sizes[-1] * 1.25)
        ax.set_xlabel("chunk size (max cl100k tokens)")
        ax.set_ylabel(label)
        ax.grid(color="0.92")
    legend_outside(right)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


# The sketch's pipeline, box by box: (key, label, centre x, centre y, the series' steps on it).
# Coordinates are in a 0-16.4 by 0-9 canvas; the diagram reads left to right, then down.
PIPELINE_BOXES = [
    ("files", "PDF / DOCX / HTML", 1.7, 7.6, ""),
    ("extract", "layout-aware extraction\n(OCR, reading order, tables)", 6.0, 7.6, "step 8"),
    ("parse", "block parser\n(headings, paragraphs,\nlists, tables, fences)", 10.3, 7.6, "step 2"),
    ("tree", "section tree\n(heading paths)", 14.6, 7.6, "step 2"),
    ("children", "child chunks\nbreadcrumb, blocks,\nmetadata, parent_id", 10.3, 4.6, "steps 1-6"),
    ("parents", "parent sections\nfull text, keyed by id\n(document store)", 14.6, 4.6, "step 3"),
    ("search", "query: search the\nchild chunks", 6.0, 1.6, "steps 3, 7, 9, 10, 11"),
    ("hits", "top-k child hits", 10.3, 1.6, "step 3"),
    ("dedupe", "dedupe parent ids,\nfetch each parent once", 14.6, 1.6, "step 3"),
]
# (from, to, label on the arrow)
PIPELINE_ARROWS = [
    ("files", "extract", ""),
    ("extract", "parse", "Markdown"),
    ("parse", "tree", ""),
    ("tree", "children", ""),
    ("tree", "parents", ""),
    ("children", "search", "embed + index"),
    ("search", "hits", ""),
    ("hits", "dedupe", ""),
    ("parents", "dedupe", "fetch by parent_id"),
]
BOX_SIZE = (3.2, 1.75)


def pipeline_diagram(title: str = "Where each step of the series sits in a real pipeline"):
    """The design sketch's pipeline (files to extraction to block parser to section tree, children
    and parents, search the children, dedupe parent ids) drawn as boxes and arrows, each box
    tagged with the series' steps that build it: the map a learner keeps in mind from step 1 on.

    Drawn rather than typed as ASCII art so that it reads the same in every viewer; boxes and
    arrows come from `PIPELINE_BOXES`/`PIPELINE_ARROWS`, so a test can check that no label
    spills out of its box and no two boxes overlap.
    """
    from matplotlib.patches import FancyBboxPatch

    fig, ax = plt.subplots(figsize=(11, 6.2))
    ax.set_xlim(-0.1, 16.4)
    ax.set_ylim(0.2, 9.1)
    ax.axis("off")
    width, height = BOX_SIZE
    centres = {}
    for key, label, x, y, steps in PIPELINE_BOXES:
        centres[key] = (x, y)
        box = FancyBboxPatch(
            (x - width / 2, y - height / 2),
            width,
            height,
            boxstyle="round,pad=0.02,rounding_size=0.15",
            facecolor="#eef3fb" if steps else "white",
            edgecolor="#3a5a8c",
            linewidth=1.2,
            gid=key,
        )
        ax.add_patch(box)
        ax.text(x, y + 0.12, label, ha="center", va="center", fontsize=8.5, gid=f"{key}:label")
        if steps:
            ax.text(
                x,
                y - height / 2 + 0.18,
                steps,
                ha="center",
                va="bottom",
                fontsize=7.5,
                color="#b04020",
                style="italic",
                gid=f"{key}:steps",
            )
    for source, target, label in PIPELINE_ARROWS:
        (x0, y0), (x1, y1) = centres[source], centres[target]
        start, end = _edge(x0, y0, x1, y1), _edge(x1, y1, x0, y0)
        ax.annotate(
            "",
            xy=end,
            xytext=start,
            gid=f"{source}->{target}",
            arrowprops={"arrowstyle": "-|>", "color": "#555555", "linewidth": 1.1},
        )
        if label:
            _arrow_label(ax, start, end, label)
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return fig


def _edge(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float]:
    """Where the line from box centre (x0, y0) towards (x1, y1) leaves the box: arrows start and
    end on box edges, never inside a label."""
    width, height = BOX_SIZE
    dx, dy = x1 - x0, y1 - y0
    scale = min(
        (width / 2) / abs(dx) if dx else float("inf"),
        (height / 2) / abs(dy) if dy else float("inf"),
    )
    return x0 + dx * scale, y0 + dy * scale


def _arrow_label(ax, start: tuple[float, float], end: tuple[float, float], label: str) -> None:
    """A label beside its arrow: above a horizontal one, to the right of one going down."""
    x, y = (start[0] + end[0]) / 2, (start[1] + end[1]) / 2
    if abs(start[1] - end[1]) < 1e-9:
        ax.text(x, y + 0.1, label, fontsize=7.5, color="#555555", ha="center", va="bottom")
    else:
        ax.text(x + 0.2, y, label, fontsize=7.5, color="#555555", ha="left", va="center")


def plot_benchmark_corpora(frame: pd.DataFrame, title: str, metrics=("recall", "precision_omega")):
    """Chroma's benchmark per corpus (notebook 10): one panel per metric, one group of bars per
    corpus, one bar per cut, each with its 95% bootstrap interval as an error bar. `frame` has
    the columns cut, corpus, and for each metric `m`: `m`, `m_low`, `m_high`.

    One corpus can carry a mean; bars per corpus show where a cut wins and where it loses."""
    fig, axes = plt.subplots(1, len(metrics), figsize=(11.5, 3.8))
    corpora = list(dict.fromkeys(frame["corpus"]))
    cuts = list(dict.fromkeys(frame["cut"]))
    width = 0.8 / len(cuts)
    for ax, metric in zip(axes, metrics, strict=True):
        for k, cut in enumerate(cuts):
            part = frame[frame["cut"] == cut].set_index("corpus").loc[corpora]
            errors = [part[metric] - part[f"{metric}_low"], part[f"{metric}_high"] - part[metric]]
            x = [i + k * width for i in range(len(corpora))]
            ax.bar(x, part[metric], width=width, yerr=errors, capsize=2, label=cut)
        ax.set_xticks([i + width * (len(cuts) - 1) / 2 for i in range(len(corpora))])
        ax.set_xticklabels(corpora, fontsize=8, rotation=15)
        ax.set_xlabel("corpus")
        ax.set_ylabel(f"{metric} (x 100)")
        ax.grid(axis="y", color="0.92")
    legend_outside(axes[-1])
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_code_cuts(
    source: str,
    cuts: dict[str, list[tuple[int, int]]],
    functions: list[tuple[int, int]],
    title: str,
    over_budget: frozenset[tuple[int, int]] = frozenset(),
):
    """Where each splitter cuts one source file (notebook 11): one row per splitter, the file's
    lines along x, its functions as grey bands, each chunk's first line as a tick. A tick inside
    a band (a function cut in two) is red, one between functions black: the red ones are what a
    reader of the chunk loses. The functions in `over_budget` are hatched: every cut must open
    those, so a red tick there is no fault of the splitter."""

    def line(offset: int) -> int:
        return source.count("\n", 0, offset) + 1

    fig, ax = plt.subplots(figsize=(10, 0.55 * len(cuts) + 1.2))
    for n, (a, b) in enumerate(functions):  # two greys, so neighbouring functions stay apart
        ax.axvspan(
            line(a),
            line(b) + 1,
            facecolor="0.82" if n % 2 else "0.91",
            hatch="///" if (a, b) in over_budget else None,
            edgecolor="0.6",
            linewidth=0,
            zorder=0,
        )
    for row, spans in enumerate(cuts.values()):
        for start, _ in spans[1:]:
            inside = any(a < start < b for a, b in functions)
            ax.plot(
                [line(start)] * 2,
                [row - 0.35, row + 0.35],
                color="tab:red" if inside else "black",
                linewidth=1.6 if inside else 0.8,
            )
    ax.set_yticks(range(len(cuts)), list(cuts))
    ax.set_ylim(len(cuts) - 0.5, -0.5)
    ax.set_xlim(1, line(len(source)) + 1)
    ax.set_xlabel("line of the file (grey: a function; red tick: a chunk starts inside one)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_comparisons(comparisons: list, title: str, wider=None, by_wider=False, verdicts=None):
    """Paired comparisons as a forest plot: one row per `Comparison` (`claims.compare`), its mean
    difference as a dot and its paired interval as a bar, with a line at 0: a bar that crosses 0 is
    "no difference shown" at a glance. `wider`, the same comparisons corrected, is a thin line;
    `by_wider` colours by its verdict, `verdicts` (one per row) colours by a given verdict."""
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(comparisons) + 1.2))
    colours = {"better": "tab:green", "worse": "tab:red", "no difference shown": "0.45"}
    for row, c in enumerate(comparisons):
        told = wider[row].verdict if by_wider and wider else c.verdict
        colour = colours[verdicts[row] if verdicts else told]
        if wider is not None:
            ax.plot([wider[row].low, wider[row].high], [row, row], color="0.3", linewidth=0.8)
        ax.plot([c.low, c.high], [row, row], color=colour, linewidth=2.2)
        hollow = bool(by_wider and wider and wider[row].verdict != c.verdict)
        face, edge = ("white", colours[c.verdict]) if hollow else (colour, colour)
        ax.plot([c.mean_difference], [row], "o", mfc=face, mec=edge, markersize=6 if hollow else 5)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(comparisons)), [f"{c.a} vs {c.b}" for c in comparisons], fontsize=8)
    ax.set_ylim(len(comparisons) - 0.5, -0.5)
    unit = "points" if comparisons and comparisons[0].scale == 100.0 else "difference"
    note = f", at {wider[0].level:.4g}%; hollow dot: at 95% only" if by_wider and wider else ""
    widths = f"; thick: {comparisons[0].level:.4g}%, thin: {wider[0].level:.4g}%" if wider else ""
    ax.set_xlabel(
        f"mean difference, {unit}, with its paired interval (green: better, red: worse, grey: "
        f"no difference shown{note}){widths}",
        fontsize=8,
    )
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


def plot_spans(rows: dict[str, list[tuple[int, int]]], title: str, window: tuple[int, int]):
    """Spans of characters on one axis (notebook 10): one row per kind (an answer's excerpts, the
    chunks retrieved, the chunks that meet the excerpt), each span a bar, clipped to `window`.
    What the benchmark's metrics count is where these bars overlap, in characters."""
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.1))
    for row, spans in enumerate(rows.values()):
        for a, b in spans:
            if b > window[0] and a < window[1]:
                ax.barh(row, b - a, left=a, height=0.5, color=f"C{row}", edgecolor="black")
    ax.set_yticks(range(len(rows)), list(rows), fontsize=8)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(*window)
    ax.set_xlabel("character offset in the corpus", fontsize=8)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
