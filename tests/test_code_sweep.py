"""`teaching.code_sweep`: the cut with no parser, and definitions sized as the tree counts them."""

from chunklab.teaching.code_search import Piece
from chunklab.teaching.code_sweep import cut_that_fit, definition_sizes, held_text, indent_pack

SOURCE = """import os


# the helper
def helper(x):
    return x + 1


class Box:
    def get(self):
        return self.value

    def put(self, value):
        self.value = value
"""


def words(text: str) -> int:
    return len(text.split())


def test_the_packer_cuts_only_before_the_least_indented_lines():
    pieces = indent_pack(12, count=words)("m.py", SOURCE)
    assert "".join(p.text for p in pieces) == SOURCE  # every line, in order, once
    assert [p.text.split("\n", 1)[0] for p in pieces] == ["import os", "class Box:"]
    assert all(words(p.text) <= 12 for p in pieces)


def test_a_block_too_big_is_cut_inside_at_its_own_least_indented_lines():
    pieces = indent_pack(6, count=words)("m.py", SOURCE)
    firsts = [p.text.strip().split("\n", 1)[0] for p in pieces]
    assert firsts[-3:] == ["def helper(x):", "class Box:", "def put(self, value):"]
    assert all(words(p.text) <= 6 for p in pieces)


def test_a_decorator_or_comment_line_stays_with_what_follows_it_inside_a_block():
    source = (
        "class A:\n    x = 1\n\n    # cached\n    @property\n    def y(self):\n        return 2\n"
    )
    pieces = indent_pack(7, count=words)("a.py", source)
    assert [p.text.strip().split("\n", 1)[0] for p in pieces] == ["class A:", "# cached"]


def test_the_tree_counts_the_breadcrumb_the_comments_above_and_a_leading_header():
    held = {name: text for name, _, text in held_text("m.py", SOURCE)}
    assert held["helper"].startswith("m.py\n\n# the helper\ndef helper(x):")
    assert held["get"].startswith(
        "m.py > Box\n\nclass Box:\n    def get(self):"
    )  # first in the body: led by the header
    assert held["put"].startswith("m.py > Box\n\ndef put(self, value):")


def test_a_definition_that_fits_alone_may_not_fit_as_the_tree_counts_it():
    sizes = definition_sizes({"m.py": SOURCE})
    counted = {name: (alone, held) for _, name, _, alone, held in sizes}
    assert counted["helper"] == (
        10,
        17,
    )  # "m.py", a blank line and "# the helper" on top of its text
    helper = next(span for _, name, span, _, _ in sizes if name == "helper")
    whole = [Piece("m.py", 0, len(SOURCE), SOURCE)]
    halves = [Piece("m.py", 0, helper[0] + 5, ""), Piece("m.py", helper[0] + 5, len(SOURCE), "")]
    assert cut_that_fit(sizes, whole, 10, as_held=False) == (0, 2)  # helper and get fit alone
    assert cut_that_fit(sizes, halves, 10, as_held=False) == (1, 2)  # helper cut
    assert cut_that_fit(sizes, halves, 10, as_held=True) == (0, 0)  # as counted, neither fits


TRAILING = """class Manager:
    def __init__(self, func):
        self.func = func
        self.doc = getattr(func, "__doc__", None)  # kept for help(): the wrapped function's text
        # a note on the last statement, inside the body as tree-sitter reads it,
        # that runs over two comment lines

    def callback(self, *args):
        return self.func(*args)  # Allow use as a decorator
"""


def test_the_held_text_takes_the_comments_the_cut_gives_the_last_statement():
    held = {name: text for name, _, text in held_text("m.py", TRAILING)}
    assert held["callback"].endswith("# Allow use as a decorator")
    assert held["__init__"].endswith("that runs over two comment lines")


def test_the_tree_cuts_no_definition_that_fits_as_held_at_any_budget():
    from chunklab.teaching.code_search import blind_cuts_and_tree

    sizes = definition_sizes({"m.py": TRAILING})
    for budget in range(20, 90, 3):
        pieces = blind_cuts_and_tree(budget)["chunklab code"]("m.py", TRAILING)
        assert cut_that_fit(sizes, pieces, budget, as_held=True)[0] == 0, budget
