"""Notebook 08 (answers against the Markdown) and companion 08c (against the plain text).

The skeptic's baseline strips the structure: a file's plain text (`pdfplumber`'s `extract_text`
for a PDF, BeautifulSoup's `get_text` for HTML, mammoth's `extract_raw_text` for Word), cut by the
same `MarkdownChunker`. A second baseline puts the document's title before each of those same
plain-text chunks, so it differs from the first by the title alone. `Survival` cuts every kind of
every document once per budget, asks every question with BM25, and reads the paired comparisons
the notebook names; the notebook keeps the question, the family and the claims' reading.
"""

from __future__ import annotations

import re
from pathlib import Path

import mammoth
import pandas as pd
import pdfplumber
from bs4 import BeautifulSoup

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.tables import orphans
from chunklab.documents.reading import read_document
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.claims import claim, compare
from chunklab.teaching.conversion_measures import plain
from chunklab.teaching.figures import plot_comparisons
from chunklab.tokens.counters import cl100k

PLAIN, TITLED = "plain text", "title + plain text"  # the two baselines, as a kind's suffix


__all__ = ["PLAIN", "TITLED", "Survival", "load", "plain", "plain_text"]


def plain_text(path: Path) -> str:
    """What a skeptic tries first: the file's text, every mark of structure gone."""
    if path.suffix == ".pdf":
        with pdfplumber.open(path) as pdf:
            text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    elif path.suffix == ".docx":
        with open(path, "rb") as file:
            text = mammoth.extract_raw_text(file).value
    else:
        text = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser").get_text("\n")
    # a line of dashes under a paragraph would read as a Markdown heading
    return re.sub(r"(?m)^\s*-{3,}\s*$", "", text)


def load(path: Path, name: str, as_plain_text: bool = False):
    """A document read from `path` (its conversion), or that file's plain text in its place."""
    doc = read_document(path, doc_id=name)
    return doc.model_copy(update={"text": plain_text(path)}) if as_plain_text else doc


class Survival:
    """Every kind of every document, cut once per budget: 'md' the source, 'html', 'docx',
    'pdf' the converted file, '<fmt>, plain text' its plain text, '<fmt>, title + plain text'
    the same plain-text chunks with the title before each."""

    def __init__(self, data: Path, sources: dict[str, str], questions: list[dict]):
        self.data, self.sources, self.questions = data, sources, questions
        self.read: dict = {}
        self.cut: dict = {}

    def chunks_of(self, kind: str, name: str, budget: int):
        """(the document, its chunks at `budget`) for one kind of one document, cut once."""
        key = (kind, name, budget)
        if key in self.cut:
            return self.read[kind, name], self.cut[key]
        if kind.endswith(TITLED):  # the plain text's own chunks, the title put before each
            doc, same = self.chunks_of(kind.replace(TITLED, PLAIN), name, budget)
            self.read[kind, name] = doc
            self.cut[key] = [
                c.model_copy(update={"text": f"{doc.title}\n\n{c.text}"}) for c in same
            ]
            return doc, self.cut[key]
        if (kind, name) not in self.read:
            stem, fmt = self.sources[name], kind.split(", ")[0]
            path = (
                self.data / f"{stem}.md"
                if kind == "md"
                else self.data / "formats" / f"{stem}.{fmt}"
            )
            self.read[kind, name] = load(path, name, as_plain_text=kind.endswith(PLAIN))
        self.cut[key] = MarkdownChunker(max_tokens=budget).split(self.read[kind, name])
        return self.read[kind, name], self.cut[key]

    def run(self, kind: str, k: int, budget: int) -> tuple[list[float], dict, dict]:
        """Per question 1.0 if one of BM25's top k chunks holds every fact; the tokens handed
        over per question; and the table's row."""
        found, spent, sizes, counts, orphaned = {}, {}, [], [], 0
        for name in self.sources:
            doc, chunks = self.chunks_of(kind, name, budget)
            counts.append(len(chunks))
            sizes += [cl100k(c.text) for c in chunks]
            orphaned += orphans(chunks, doc)
            by_id = {c.chunk_id: c.text for c in chunks}
            for q in (q for q in self.questions if q["document"] == name):
                top = [h.ref_id for h in BM25Retriever().rank(q["question"], chunks, k)]
                holds = [all(plain(f) in plain(by_id[ref]) for f in q["facts"]) for ref in top]
                found[q["id"]] = float(any(holds))
                spent[q["id"]] = sum(cl100k(by_id[ref]) for ref in top)
        row = {
            "budget": budget,
            "k": k,
            "format": kind,
            "chunks per document": counts,
            "orphans": orphaned,
            "tokens a chunk": f"{min(sizes)}-{max(sizes)}",
            "complete": f"{int(sum(found.values()))}/{len(self.questions)}",
            "tokens to the model per question": round(sum(spent.values()) / len(spent)),
        }
        return [found[q["id"]] for q in self.questions], spent, row

    def run_all(self, kinds: list[str], budgets=(200, 100), ks=(3, 1)) -> pd.DataFrame:
        """Every kind at every budget and k (the titled plain text at 100 tokens only); the
        table at k = 3 (k = 1 ranks the same chunks)."""
        self.runs = {
            (kind, k, b): self.run(kind, k, b)
            for b in budgets
            for k in ks
            for kind in kinds
            if b == 100 or not kind.endswith(TITLED)
        }
        self.found = {key: found for key, (found, _, _) in self.runs.items()}
        rows = [row for _, _, row in self.runs.values() if row["k"] == 3]
        return pd.DataFrame(rows).set_index(["budget", "k", "format"])

    def ids(self, a: tuple, b: tuple, sign: int) -> list[str]:
        """The questions run `a` wins from run `b` (sign 1), or loses to it (sign -1)."""
        pairs = zip(self.questions, self.found[a], self.found[b], strict=True)
        return [q["id"] for q, x, y in pairs if (x - y) * sign > 0]

    def against_markdown(self, formats=("html", "docx", "pdf")) -> None:
        """Each format against the Markdown source, every budget and k, each read at 95%."""
        pairs = {
            key: compare(self.found[key], self.found[("md", *key[1:])], show=False)
            for key in self.found
            if key[0] in formats
        }
        for (kind, k, b), c in pairs.items():
            if c.won or c.lost:
                print(
                    f"{kind} at {b} (k={k}) vs md: won {self.ids((kind, k, b), ('md', k, b), 1)}, "
                    f"lost {self.ids((kind, k, b), ('md', k, b), -1)}, {c.verdict}"
                )
        lost_at_3 = ", ".join(
            f"{kind} {b}: lost {c.lost}" for (kind, k, b), c in pairs.items() if k == 3
        )
        claim(
            "answers-survive-every-format",
            "at k=3, at 200 and at 100 tokens, HTML, Word and PDF "
            "complete every question the Markdown completes",
            holds=all(c.lost == 0 for (_, k, _), c in pairs.items() if k == 3),
            evidence=lost_at_3,
        )
        claim(
            "no-format-shown-worse-than-md",
            "at k=1 too, no format is shown worse than the Markdown, at either budget",
            holds=not any(c.worse for c in pairs.values()),
            evidence=f"{sum(c.verdict == 'no difference shown' for c in pairs.values())} of "
            f"{len(pairs)} comparisons: no difference shown",
        )

    def against_plain_text(self, family: list[tuple], level: float, title: str) -> dict:
        """Each conversion against its baseline, the family read at `level`; the table (won and
        lost, the paired interval at `level`, the sign test's p), the forest plot, and the
        section's claims."""
        got = {
            (kind, k, b, base): compare(
                self.found[kind, k, b],
                self.found[f"{kind}, {base}", k, b],
                a=f"{kind} at {b} (k={k})",
                b=f"its {base}",
                level=level,
                show=False,
            )
            for kind, k, b, base in family
        }
        table = pd.DataFrame(
            [
                {
                    "budget": b,
                    "against": base,
                    "format": kind,
                    "k": k,
                    "won-lost": f"{c.won}-{c.lost}",
                    "interval": f"[{c.low:+.1f}, {c.high:+.1f}]",
                    "p": round(c.p_value, 4),
                    "verdict": c.verdict,
                }
                for (kind, k, b, base), c in got.items()
            ]
        )
        print(table.set_index(["budget", "against", "format", "k"]).to_string())
        plot_comparisons(list(got.values()), title)
        self._claims(got, alpha=(100 - level) / 100)
        return got

    def _claims(self, got: dict, alpha: float) -> None:
        at: dict = {}
        for (kind, k, b, base), c in got.items():
            at.setdefault((b, base), {})[f"{kind} k={k}"] = c
        at_200, at_100, titled = at[200, PLAIN], at[100, PLAIN], at[100, TITLED]
        claim(
            "plain-text-not-told-apart-at-200",
            "at 200 tokens, at k=3 and at k=1, the "
            "structure-keeping conversion is not told apart from the plain text",
            holds=all(c.verdict == "no difference shown" for c in at_200.values()),
            evidence="; ".join(f"{n}: {c.won}-{c.lost}" for n, c in at_200.items()),
        )
        claim(
            "conversion-leans-at-100",
            "at 100 tokens, at k=3 and at k=1, every format's "
            "conversion wins more questions than its plain text, and none of the six leads is "
            "shown in the family",
            holds=all(
                c.won > c.lost and c.verdict == "no difference shown" for c in at_100.values()
            ),
            evidence="; ".join(
                f"{n}: {c.won}-{c.lost}, p = {c.p_value:.3g}" for n, c in at_100.items()
            )
            + f"; threshold {alpha:.4f}",
        )
        narrower = all(c.won - c.lost < at_100[n].won - at_100[n].lost for n, c in titled.items())
        claim(
            "title-narrows-every-lead",
            "at 100 tokens, against the same plain-text chunks with "
            "the title before each, every conversion's lead is smaller than against the plain "
            "text; at k=3 the PDF's falls to one question or none",
            holds=narrower and titled["pdf k=3"].won - titled["pdf k=3"].lost <= 1,
            evidence="; ".join(
                f"{n}: {c.won}-{c.lost} (plain text: {at_100[n].won}-{at_100[n].lost})"
                for n, c in titled.items()
            ),
        )

    def hands_over_more(self, formats=("pdf", "html", "docx"), budgets=(200, 100)) -> None:
        """At k = 3, on how many questions the plain text hands the model more tokens."""
        spent = {key: tokens for key, (_, tokens, _) in self.runs.items()}
        more = {
            f"{kind} {b}": sum(
                spent[f"{kind}, {PLAIN}", 3, b][q] > spent[kind, 3, b][q] for q in spent[kind, 3, b]
            )
            for b in budgets
            for kind in formats
        }
        claim(
            "plain-text-hands-over-more",
            "at k=3, in every format and at both budgets, the "
            "plain text hands the model more tokens than the conversion on most questions",
            holds=all(n > len(self.questions) / 2 for n in more.values()),
            evidence=", ".join(
                f"{key}: more on {n} of {len(self.questions)}" for key, n in more.items()
            ),
        )
