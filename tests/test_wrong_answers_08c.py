"""Companion 08c: its exercise reads a family as section 1 does (the check 03d.3 uses); the slip
its figure invites, the interval read alone, is refused here with its hint."""

import pytest
from test_wrong_answers_03d import _reading

from chunklab.teaching.claims import sign_test
from chunklab.teaching.exercises import verdict


def test_08c_1_accepts_the_rule():
    assert verdict("08c.1", _reading()).passed


def test_08c_1_the_html_row_is_the_one_the_interval_alone_misreads():
    """The HTML's 7-0 at k = 3, interval [+3.8, +53.8], in a family of 18: the interval alone
    says better, the sign test (p = 0.0156 against 0.05 / 18) withholds it."""
    row = (7, 0, 3.8, 53.8)
    family = [row] + [(1, 0, 0.0, 19.2)] * 17
    assert sign_test(7, 0) > 0.05 / 18
    assert _reading()(family)[0] == "no difference shown"
    assert _reading(counts=False)(family)[0] == "better"


@pytest.mark.parametrize(
    ("fn", "hint"),
    [
        (_reading(counts=False), "the interval alone"),
        (_reading(alpha=0.05), "you read every row at 0.05"),
        (_reading(interval=False), "the sign test alone"),
    ],
)
def test_08c_1_refuses_each_slip_with_its_hint(fn, hint):
    result = verdict("08c.1", fn)
    assert not result.passed and hint in result.message, result.message
