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
import matplotlib.pyplot as plt
import pandas as pd
import pdfplumber
from bs4 import BeautifulSoup

from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.tables import orphans
from chunklab.documents.reading import read_document
from chunklab.retrieval.retrievers import BM25Retriever
from chunklab.teaching.claims import (
    INTERVAL_ONLY,
    claim,
    compare,
    fewest_decisive,
    p_text,
    signed,
)
from chunklab.teaching.conversion_measures import plain
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
            converted = self.read.get((fmt, name))  # the file already read: only its text changes
            if kind.endswith(PLAIN) and converted is not None:
                self.read[kind, name] = converted.model_copy(update={"text": plain_text(path)})
            else:
                self.read[kind, name] = load(path, name, as_plain_text=kind.endswith(PLAIN))
        self.cut[key] = MarkdownChunker(max_tokens=budget).split(self.read[kind, name])
        return self.read[kind, name], self.cut[key]

    def run_ks(self, kind: str, ks: tuple[int, ...], budget: int) -> dict[int, tuple]:
        """For each k in `ks`: per question 1.0 if one of BM25's top k chunks holds every fact;
        the tokens handed over per question; and the table's row. One ranking per question: BM25's
        top k are the first k of its top max(ks) (`_top` sorts every score, ties to the first
        chunk)."""
        found: dict = {k: {} for k in ks}
        spent: dict = {k: {} for k in ks}
        counts, orphaned = [], 0
        sizes: list[int] = []
        for name in self.sources:
            doc, chunks = self.chunks_of(kind, name, budget)
            counts.append(len(chunks))
            tokens = {c.chunk_id: cl100k(c.text) for c in chunks}
            sizes += tokens.values()
            orphaned += orphans(chunks, doc)
            by_id = {c.chunk_id: c.text for c in chunks}
            words_of: dict = {}  # each chunk read word by word once
            bm25 = BM25Retriever()  # one index per document, shared by its questions
            for q in (q for q in self.questions if q["document"] == name):
                ranked = [h.ref_id for h in bm25.rank(q["question"], chunks, max(ks))]
                for ref in ranked:
                    words_of.setdefault(ref, plain(by_id[ref]))
                facts = [plain(f) for f in q["facts"]]
                for k in ks:
                    top = ranked[:k]
                    found[k][q["id"]] = float(
                        any(all(f in words_of[r] for f in facts) for r in top)
                    )
                    spent[k][q["id"]] = sum(tokens[ref] for ref in top)
        results = {}
        for k in ks:
            row = {
                "budget": budget,
                "k": k,
                "format": kind,
                "chunks per document": counts,
                "orphans": orphaned,
                "tokens a chunk": f"{min(sizes)}-{max(sizes)}",
                "complete": f"{int(sum(found[k].values()))}/{len(self.questions)}",
                "tokens to the model per question": round(sum(spent[k].values()) / len(spent[k])),
            }
            results[k] = ([found[k][q["id"]] for q in self.questions], spent[k], row)
        return results

    def run_all(
        self, kinds: list[str], budgets=(200, 100), ks=(3, 1), titled_at=None
    ) -> pd.DataFrame:
        """Every kind at every budget and k (the titled plain text at the budgets `titled_at`
        only, if given); the table at k = 3 (k = 1 ranks the same chunks)."""
        ran = {
            (kind, b): self.run_ks(kind, tuple(ks), b)
            for b in budgets
            for kind in kinds
            if titled_at is None or b in titled_at or not kind.endswith(TITLED)
        }
        self.runs = {
            (kind, k, b): ran[kind, b][k]
            for b in budgets
            for k in ks
            for kind in kinds
            if (kind, b) in ran
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

    def against_plain_text(self, family: list[tuple], level: float) -> dict:
        """Each conversion against its plain text, the family read at `level`: the table (a row
        per budget, a column per format: won-lost, the paired interval, the verdict where one is
        shown), the sweep's figure, and the section's claims."""
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
        cells = {
            (b, kind): f"{c.won}-{c.lost} [{signed(c.low)}, {signed(c.high)}]"
            + ("" if c.verdict == "no difference shown" else f" {c.verdict}")
            for (kind, _, b, _), c in got.items()
        }
        formats = list(dict.fromkeys(kind for kind, *_ in family))
        budgets = list(dict.fromkeys(b for _, _, b, _ in family))
        table = pd.DataFrame(
            [[cells[b, kind] for kind in formats] for b in budgets], index=budgets, columns=formats
        )
        print(table.rename_axis("budget").to_string())
        plot_sweep(got, level)
        self._claims(got, alpha=(100 - level) / 100)
        return got

    def _claims(self, got: dict, alpha: float) -> None:
        at = {(kind, b): c for (kind, _, b, _), c in got.items()}
        need = fewest_decisive(len(self.questions), alpha)
        shown = {key for key, c in at.items() if c.verdict != "no difference shown"}
        claim(
            "conversion-shown-for-html-at-70-80",
            "from 50 to 400 tokens at k=3, in the family, the conversion is shown better than "
            "its plain text for HTML at 70 and at 80 tokens, and nowhere else",
            holds=shown == {("html", 70), ("html", 80)} and all(at[key].better for key in shown),
            evidence="; ".join(f"{kind} at {b}: {at[kind, b].brief()}" for kind, b in sorted(shown))
            + f"; threshold {alpha:.5f}, {need} questions all one way needed",
        )
        leans = {key: c for key, c in at.items() if 60 <= key[1] <= 150 and key not in shown}
        above = [f"{kind} {b}: {c.won}-{c.lost}, p = {c.p_value:.3g}" for (kind, b), c in
                 leans.items() if c.withheld_by == INTERVAL_ONLY]  # fmt: skip
        claim(
            "leans-from-60-to-150",
            "from 60 to 150 tokens every other conversion also wins more questions than its "
            "plain text, none shown in the family, though some intervals lie wholly above 0",
            holds=all(c.won > c.lost and c.verdict == "no difference shown" for c in leans.values())
            and bool(above),
            evidence=f"smallest lead {min(c.won - c.lost for c in leans.values())} question(s); "
            "interval above 0, sign test withholding: " + "; ".join(above),
        )
        at_50 = {kind: c for (kind, b), c in at.items() if b == 50}
        claim(
            "plain-text-leans-at-50",
            "at 50 tokens no conversion wins more questions than its plain text, and the plain "
            "text wins more against HTML and PDF, none shown",
            holds=all(
                c.won <= c.lost and c.verdict == "no difference shown" for c in at_50.values()
            )
            and all(at_50[kind].lost > at_50[kind].won for kind in ("html", "pdf")),
            evidence="; ".join(f"{kind}: {c.won}-{c.lost}" for kind, c in at_50.items()),
        )
        top = {key: c for key, c in at.items() if key[1] >= 200}
        claim(
            "no-lead-from-200-up",
            "from 200 tokens up no conversion and its plain text differ on more than 2 "
            f"questions, so none could be shown (the family needs {need})",
            holds=all(c.decisive <= 2 for c in top.values()),
            evidence=", ".join(f"{kind} {b}: {c.won}-{c.lost}" for (kind, b), c in top.items()),
        )

    def titled_leads(self, budgets=(70, 80, 100), formats=("html", "docx", "pdf"), need=11):
        """At k = 3, each conversion's lead (won - lost) over its plain text and over its titled
        plain text, and the claim that the title narrows every lead."""
        leads = {}
        for b in budgets:
            for kind in formats:
                plain_c, titled_c = (
                    compare(self.found[kind, 3, b], self.found[f"{kind}, {base}", 3, b], show=False)
                    for base in (PLAIN, TITLED)
                )
                leads[f"{kind} {b}"] = (plain_c, titled_c)
        html = [t for key, (_, t) in leads.items() if key in ("html 70", "html 80")]
        claim(
            "title-narrows-every-lead",
            f"at {', '.join(map(str, budgets))} tokens (k=3), against the same plain-text chunks "
            "with the title before each, every conversion's lead is smaller than against the "
            f"plain text; HTML's at 70 and 80 falls below the {need} one-way questions the "
            "family needs",
            holds=all(t.won - t.lost < p.won - p.lost for p, t in leads.values())
            and all(t.decisive < need or t.lost > 0 for t in html),
            evidence="; ".join(
                f"{key}: {t.won}-{t.lost} (plain text: {p.won}-{p.lost})"
                for key, (p, t) in leads.items()
            ),
        )

    def hands_over_more(self, formats=("pdf", "html", "docx"), budgets=(200, 100)) -> None:
        """At k = 3, the tokens handed to the model per question, the plain text's against the
        conversion's, paired: a family of its own (formats x budgets)."""
        spent = {key: tokens for key, (_, tokens, _) in self.runs.items()}
        level = 100 - 5 / (len(formats) * len(budgets))
        more = {
            f"{kind} {b}": compare(
                list(spent[f"{kind}, {PLAIN}", 3, b].values()),
                [spent[kind, 3, b][q] for q in spent[f"{kind}, {PLAIN}", 3, b]],
                scale=1.0,
                level=level,
                show=False,
            )
            for b in budgets
            for kind in formats
        }
        claim(
            "plain-text-hands-over-more",
            f"at k=3, in every format at {' and '.join(map(str, budgets))} tokens, the plain text "
            f"is shown to hand the model more tokens per question than the conversion (paired, "
            f"a family of {len(more)})",
            holds=all(c.better for c in more.values()),
            evidence="; ".join(
                f"{key}: more on {c.won}, fewer on {c.lost}, {p_text(c.p_value)}, "
                f"[{signed(c.low)}, {signed(c.high)}] tokens"
                for key, c in more.items()
            ),
        )


def plot_sweep(got: dict, level: float):
    """Won minus lost per budget, a line per format: a filled dot where the family shows the
    conversion better (or worse), a hollow one where it does not."""
    fig, ax = plt.subplots(figsize=(8, 3))
    for kind in dict.fromkeys(kind for kind, *_ in got):
        row = sorted((b, c) for (kd, _, b, _), c in got.items() if kd == kind)
        line = ax.plot([b for b, _ in row], [c.won - c.lost for _, c in row], label=kind)[0]
        for b, c in row:
            shown = c.verdict != "no difference shown"
            ax.plot(b, c.won - c.lost, "o", mec=line.get_color(),
                    mfc=line.get_color() if shown else "white", ms=8 if shown else 5)  # fmt: skip
    budgets = sorted({b for _, _, b, _ in got})
    ax.set_xscale("log")
    ax.set_xticks(budgets, [str(b) for b in budgets], fontsize=8)
    ax.minorticks_off()
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("max_tokens (k = 3)")
    ax.set_ylabel("won - lost")
    ax.set_title(
        f"conversion vs its plain text (filled: shown better at {level:.4g}%)", fontsize=10
    )
    ax.legend(loc="upper right")
    fig.tight_layout()
    return fig
