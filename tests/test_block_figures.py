"""`plot_line_kinds` (companion 02b's picture of the three inputs): a red outline on exactly the
lines the two parsers put in different blocks, and each line's kind written in its cell."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from chunklab.teaching.block_figures import plot_line_kinds  # noqa: E402


def test_only_the_lines_that_differ_are_outlined():
    lines = ["Per diem", "========", "Meals.", ""]
    sketch = ["paragraph", "paragraph", "paragraph", ""]
    chunklab = ["heading", "heading", "paragraph", ""]
    figure = plot_line_kinds({"setext": (lines, sketch, chunklab)}, "test")
    ax = figure.axes[0]
    outlines = [p for p in ax.patches if not p.get_fill()]
    assert len(outlines) == 2  # the title and its underline; "Meals." and the blank line agree
    assert sorted(round(p.get_y() + p.get_height() / 2, 1) for p in outlines) == [-1.6, -0.6]
    written = [t.get_text() for t in ax.texts]
    cells = [kind for pair in zip(sketch, chunklab, strict=True) for kind in pair]
    assert written == [kind or "-" for kind in cells]
    plt.close(figure)
