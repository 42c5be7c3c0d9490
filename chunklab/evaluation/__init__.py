"""Evaluation: questions, the metrics that judge a cut, and the experiment that compares cuts.

- `questions`:  question sets and question files: the facts an answer needs, and where they are.
- `metrics`:    what a cut did to a document, and whether a ranking reached the evidence.
- `recall`:     fact recall and what it costs in tokens (the design sketch's evaluation).
- `experiment`: strategies x retrievers x questions: the general runner and its summaries.
- `article`:    the article's section 8 table, reproduced with its stub retriever.
- `chroma`:     Chroma's chunking benchmark: its data, chunk positions and four metrics.
- `benchmark`:  any cut on that benchmark: top k over one collection, per-question scores.
- `benchmark_rows`: the cuts notebook 10 and the tests score there, and their stored vectors.
- `stored_cuts`: notebook 10d's MarkdownChunker cuts of that benchmark, stored and checked.
- `benchmark_rankers`: BM25 and the hybrid there, the collection indexed once: seconds, not minutes.
- `bootstrap`:  95% bootstrap intervals of a mean over questions, and of a paired difference.

May import everything below it: `contracts`, `parsing`, `tokens`, `documents`, `embeddings`,
`chunkers`, `retrieval`.
"""
