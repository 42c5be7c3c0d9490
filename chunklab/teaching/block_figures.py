"""Which block holds each line of a small input, under two parsers, drawn side by side.

A printed table of line kinds is exact but slow to scan: the reader has to compare two columns of
words line by line. Coloured cells with the disagreements outlined show in one glance where, and
over how many lines, two parsers read the same text differently.
"""

from __future__ import annotations

import matplotlib.pyplot as plt

KIND_COLOURS = {
    "heading": "#fdae6b",
    "paragraph": "#9ecae1",
    "code": "#a1d99b",
    "table": "#bcbddc",
    "list": "#fdd0a2",
    "": "#ffffff",  # a blank line outside code: no block
}


def plot_line_kinds(
    cases: dict[str, tuple[list[str], list[str], list[str]]],
    title: str,
    names: tuple[str, str] = ("sketch", "chunklab"),
):
    """One panel per input: each line a row, one column per parser, each cell coloured and named
    by the kind of block that holds the line; a red outline where the two columns differ.

    ``cases`` maps an input's name to (its lines, the first parser's kinds, the second's).
    """
    fig, axes = plt.subplots(1, len(cases), figsize=(4.4 * len(cases), 3.2), squeeze=False)
    for ax, (case, (lines, left, right)) in zip(axes[0], cases.items(), strict=True):
        for y, kinds in enumerate(zip(left, right, strict=True)):
            for x, kind in enumerate(kinds):
                colour = KIND_COLOURS.get(kind, "#dddddd")
                ax.add_patch(plt.Rectangle((x, -y - 1), 0.95, 0.9, color=colour))
                ax.text(x + 0.47, -y - 0.55, kind or "-", ha="center", va="center", fontsize=7)
            if kinds[0] != kinds[1]:
                outline = plt.Rectangle((-0.03, -y - 1.04), 1.99, 0.98, fill=False, edgecolor="red")
                ax.add_patch(outline)
        ax.set_xlim(-0.06, 2.0)
        ax.set_ylim(-len(lines) - 0.2, 0.2)
        ax.set_xticks([0.47, 1.47], list(names))
        ax.xaxis.tick_top()
        labels = [line[:26] or "(blank)" for line in lines]
        rows = [-y - 0.55 for y in range(len(lines))]
        ax.set_yticks(rows, labels, fontsize=7, family="monospace")
        ax.set_title(case, fontsize=9, pad=20)
        for side in ax.spines.values():
            side.set_visible(False)
        ax.tick_params(length=0)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
