"""Hypothesis strategies for Markdown documents built from the constructs real documents use."""

from hypothesis import strategies as st

words = st.sampled_from(
    [
        "leave",
        "policy",
        "the",
        "table",
        "Tokyo",
        "90",
        "days",
        "approval",
        "é",
        "ação",
        "a|b",
        "`x`",
        "**bold**",
        "[link](#x)",
        "{% page %}",
        "<br>",
        "3.",
        "#5",
        "-",
        "*",
    ]
)
sentence = st.lists(words, min_size=1, max_size=9).map(" ".join).filter(lambda s: s.strip())


@st.composite
def paragraph(draw):
    lines = draw(st.lists(sentence, min_size=1, max_size=3))
    return "\n".join(line.lstrip("-*#0123456789>|= ") or "text" for line in lines)


@st.composite
def heading(draw):
    title = draw(sentence).lstrip("-*#=|> ") or "Title"
    style = draw(st.sampled_from(["atx", "atx_closed", "setext1", "setext2"]))
    level = draw(st.integers(1, 6))
    if style == "atx":
        return "#" * level + " " + title
    if style == "atx_closed":
        return "#" * level + " " + title + " " + "#" * draw(st.integers(1, 3))
    return title + "\n" + ("===" if style == "setext1" else "---")


@st.composite
def table(draw):
    columns = draw(st.integers(1, 4))
    outer = draw(st.booleans())
    cell = st.sampled_from(["City", "90", "", "a\\|b", "x<br>y", "Limite", "0,08", "**ok**"])

    def row(cells):
        body = " | ".join(cells)
        return f"| {body} |" if outer else body

    header = draw(st.lists(cell, min_size=columns, max_size=columns))
    if not outer and columns == 1:
        outer = True  # a one-column table needs its pipes
    lines = [
        row(header),
        row([draw(st.sampled_from(["---", ":--", "--:", ":-:"])) for _ in range(columns)]),
    ]
    lines += [
        row(draw(st.lists(cell, min_size=columns, max_size=columns)))
        for _ in range(draw(st.integers(0, 4)))
    ]
    return "\n".join(lines)


@st.composite
def list_block(draw):
    ordered = draw(st.booleans())
    items = []
    for n in range(draw(st.integers(1, 4))):
        marker = f"{n + 1}." if ordered else "-"
        pad = " " * (len(marker) + 1)
        item = f"{marker} {draw(sentence).lstrip('-*#>|0123456789= ') or 'item'}"
        extra = draw(st.sampled_from(["", "continued", "lazy", "nested", "para"]))
        if extra == "continued":
            item += f"\n{pad}{draw(sentence)}"
        elif extra == "lazy":
            item += "\nlazy " + draw(sentence)
        elif extra == "nested":
            item += f"\n{pad}- nested {draw(sentence)}"
        elif extra == "para":
            item += f"\n\n{pad}second paragraph"
        items.append(item)
    joiner = "\n\n" if draw(st.booleans()) else "\n"
    return joiner.join(items)


@st.composite
def code(draw):
    fence = draw(st.sampled_from(["```", "~~~", "````"]))
    body = draw(
        st.lists(
            st.sampled_from(["# not a heading", "| a | b |", "x = 1", "", "---", "- item"]),
            max_size=4,
        )
    )
    closed = draw(st.booleans())
    return "\n".join(
        [fence + draw(st.sampled_from(["", "python", "yaml"])), *body] + ([fence] if closed else [])
    )


@st.composite
def quote(draw):
    lines = [f"> {draw(sentence)}" for _ in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        lines.append("lazy " + draw(sentence).lstrip("-*#>|0123456789= "))
    return "\n".join(lines)


html = st.sampled_from(
    ["<div>\ninside\n</div>", "<!-- a comment -->", "<table><tr><td>1</td></tr></table>"]
)
rule = st.sampled_from(["***", "---", "___", "* * *"])
indented_code = st.just("    indented code\n    more code")

block = st.one_of(
    paragraph(), heading(), table(), list_block(), code(), quote(), html, rule, indented_code
)


@st.composite
def document(draw):
    blocks = draw(st.lists(block, min_size=1, max_size=8))
    parts = [blocks[0]]
    for b in blocks[1:]:
        # Mostly a blank line between blocks; sometimes none, as when a table sits right under a
        # sentence, or a list right under its lead-in line.
        parts.append(draw(st.sampled_from(["\n\n", "\n\n", "\n\n", "\n"])) + b)
    front = draw(st.sampled_from(["", "---\ntitle: x\ntags: [a, b]\n---\n"]))
    return front + "".join(parts) + draw(st.sampled_from(["", "\n", "\n\n"]))
