"""Exercise 04b.1's check: reading a model's `split_after` reply into piece numbers, with the
slips a refusal names.

Why a module of its own: a model's reply is text, and the reader must find the one line that
answers, read its numbers in order and refuse a reply it cannot read, as `chunklab.chunkers.llm`
does (`split_after`). The cases are replies a model really gives (prose around the line, a missing
space, a repeat, a number out of order); any correct reader passes, however it is written.
Registered in `exercises.CHECKS`.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from chunklab.chunkers.llm import split_after
from chunklab.teaching.checking import NotYet, run_without, short

_REPLIES_04B = [
    "split_after: 3, 5",
    "Sure, here you go.\nsplit_after: 2, 4, 9",
    "split_after:7",
    "Pieces 1 to 4 are about leave.\nsplit_after: 4, 8",
    "split_after: 10, 12, 31",
    "split_after:",
    "split_after:\n3, 5",  # the line names no cut; the numbers are on the next line
    "split_after: 5, 3",
    "I would cut after piece 3.",
    "split_after: 3, 3",
    "split_after: 3\nPiece 7 is long, so I kept it whole.",
    "Pieces 2 and 9 are short.\nsplit_after: 4\nThen 11 and 12 follow.",
    "split_after: 3.5",
    "split_after: 3, five",
    "split_after: 3 5",
    "split_after: 3,,5",
    "split_after: 3, 5,",
    "split_after: 3,5",
    "split_after: 3 , 5",
    "split_after: +3",
    "split_after: 2, -1",
    "split_after: 1_0",
    "split_after: \u0663, \u0665",  # Arabic-Indic 3 and 5: digits to Python, not 0-9
    "split_after: 2, \uff14",  # a fullwidth 4
    "Answer: split_after: 3, 5",  # words before it on its line: not the split_after: line
    "  split_after: 3, 5",  # spaces before the line's split_after: are allowed
    "Here are the cuts.\n\tsplit_after: 4",
    "SPLIT_AFTER: 3, 5",  # not the line: split_after: is lowercase
    "split_after: 3\nOn second thought:\nsplit_after: 5, 7",  # the first such line is the answer
]


def _piece_numbers_slip(reply: str, got: Any) -> str:
    """What a wrong reader most likely did, named: numbers read past the line, or before it."""
    after = reply.split("split_after:", 1)[1] if "split_after:" in reply else ""
    last = reply.rsplit("split_after:", 1)[1].split("\n", 1)[0] if "split_after:" in reply else ""
    if reply.count("split_after:") > 1 and got == [int(n) for n in re.findall(r"\d+", last)]:
        return "two split_after: lines: the first is the answer, not the last"
    if got == [int(n) for n in re.findall(r"\d+", after)] and not re.search(
        r"\d", after.split("\n")[0]
    ):
        return (
            "only the split_after: line counts, not the lines that follow it: this one names no "
            "number, yet you read the next line's (\\s, and so \\s*, matches a newline too); "
            "read the line alone: it means no cut, []"
        )
    if got == [int(n) for n in re.findall(r"\d+", after)]:
        return "only the split_after: line counts, not the lines that follow it"
    if got == [int(n) for n in re.findall(r"\d+", reply)]:
        return "only the split_after: line counts, not numbers elsewhere in the reply"
    return "read the numbers of the split_after: line alone"


def _refusal_slip(reply: str) -> str:
    """Why the reply must be refused, named by the slip that let it through."""
    if "split_after:" not in reply and "split_after:" in reply.lower():
        return "split_after: is written in lowercase; another case is not that line: raise"
    if "split_after:" not in reply:
        return "the reply has no split_after: line; raise, never return an empty list"
    before = reply.split("split_after:", 1)[0].rsplit("\n", 1)[-1]
    if before.strip():
        return (
            "the split_after: line starts with split_after: (spaces or tabs before it allowed); "
            "a line "
            f"that says {before.strip()!r} first is not that line: raise"
        )
    line = reply.split("split_after:", 1)[1].splitlines()[0]
    if any(ch.isdigit() and not ch.isascii() for ch in line):
        return (
            "\\d, str.isdigit() and int() also read another script's digits ('\u0663' as 3, "
            "'\uff14' as 4); a whole number here is written in 0-9: accept those ten alone"
        )
    items = line.split(",")
    if re.search(r"[-+_]", line) and all(re.fullmatch(r"\s*[-+]?\d[\d_]*\s*", i) for i in items):
        return (
            "int() also reads '+3', '-1' and '1_0' (as 10), which are not whole numbers as "
            "written: check that each item is digits alone before converting it"
        )
    if not re.fullmatch(r"[\s\d,]*", line):
        return (
            "the line holds something other than whole numbers and commas; "
            "picking out its digits is a guess, raise instead"
        )
    if line.strip() and not all(item.strip().isdigit() for item in line.split(",")):
        return (
            "numbers must be separated by single commas; an empty or space-separated item "
            "is unreadable: raise"
        )
    numbers = [int(n) for n in re.findall(r"\d+", line)]
    if len(set(numbers)) < len(numbers):
        return "a number is repeated: a repeat is out of order too (strictly ascending), raise"
    return "the numbers are out of order: raise, never sort them into order (that is a guess)"


LIBRARY_READER = (
    "your function calls the library's split_after: the exercise is to write that "
    "reading yourself (find the line, take its numbers, check their order)"
)


def check_piece_numbers(fn: Callable) -> int:
    """By the library's reader (`chunkers.llm.split_after`, with no window bound): the numbers
    on the `split_after:` line, strictly ascending; a reply without that line, out of order or
    with a number repeated, raises."""
    rng, cases = random.Random(41), 0
    replies = list(_REPLIES_04B)
    for _ in range(20):
        numbers = sorted(rng.sample(range(1, 40), rng.randint(1, 5)))
        prefix = rng.choice(["", "Here are the cuts.\n", "Read 12 pieces.\n"])
        replies.append(
            prefix + "split_after:" + rng.choice([" ", ""]) + ", ".join(map(str, numbers))
        )
    for reply in replies:
        try:
            expected: Any = split_after(reply, 0, 10**9)
        except ValueError:
            expected = ValueError
        try:
            got: Any = [int(n) for n in run_without(fn, (reply,), split_after, LIBRARY_READER)]
        except ValueError:
            got = ValueError
        except (NotYet, NotImplementedError):  # a refusal, or the starter: as every check
            raise
        except Exception as error:  # Chroma's reader, [...][0] on a reply with no such line
            raise NotYet(
                f"your function raised {type(error).__name__} ({error}) on reply={reply!r}: "
                + (
                    "a reply you cannot read raises ValueError, checked before you index or convert"
                    if expected is ValueError
                    else f"this reply is readable: expected {expected}"
                )
            ) from None
        if got != expected:
            should = "a ValueError" if expected is ValueError else str(expected)
            said = "a ValueError" if got is ValueError else short(got)
            why = (
                ""
                if expected is ValueError or got is ValueError
                else ": " + _piece_numbers_slip(reply, got)
            )
            if expected is ValueError and got is not ValueError:
                why = ": " + _refusal_slip(reply)
            if got is ValueError and expected is not ValueError:
                why = ": this reply is readable; read each whole number (10 is one, not 1 and 0)"
                if re.search(r"\d,\d|\d ,", reply):
                    why = ": this reply is readable; single commas, spaces around them optional"
                elif re.search(r"split_after:\d", reply):
                    why = ": this reply is readable; the space after the colon is optional"
                elif re.search(r"^[ \t]+split_after:", reply, re.M):
                    why = ": this reply is readable; spaces or tabs before split_after: are allowed"
                elif expected == []:
                    why = ": a split_after: line with no numbers means no cut: return []"
                elif not reply.startswith("split_after:"):
                    why = ": the line may follow other text: search every line of the reply"
            raise NotYet(f"reply={reply!r}: expected {should}, got {said}{why}")
        cases += 1
    return cases
