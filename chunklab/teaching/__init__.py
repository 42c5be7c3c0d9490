"""The notebooks' helpers: pictures and tables, self-checks, and the exercises' checks.

- `report`:    tables and plots (with `figures` and `block_figures`, the only modules that import
  pandas and matplotlib).
- `figures`:   the experiment's figures and the pipeline map (re-exported by `report`), every
  legend outside the data.
- `block_figures`: which block holds each line of a small input, two parsers side by side
  (companion 02b).
- `cuts`:      where the cuts fall: a document with each chunk's span coloured (HTML and text).
- `selfcheck`: `check(...)`: a notebook's claims re-computed from the library.
- `claims`:    `claim(...)`, a conclusion printed with its evidence and verdict, and
  `compare(a, b)`, two strategies on the same questions: won, lost, tied, paired interval.
- `rule_book`: rules stated as claims over paired comparisons, each comparison kept as a row, and
  the decision table with each row's evidence.
- `answers`:   an answer judged on its value: list or tuple, rounding, order; what is wrong.
- `exercises`: the exercises' checks, which accept any correct answer.
- `equal_count`: notebook 02c's equal-chunk-count baseline, a cut against fixed windows that make
  as many chunks, per heading test.
- `exercises_line_windows`: exercise 01d.2, windows with no overlap that end at a line break, and
  the slips it names.
- `exercises_structural`: notebook 02's checks (02.1, 02b.1), each naming the mistake of a plausible
  wrong answer.
- `exercises_table_blank_line`: exercise 02d.1, a blank line above each table's header row that
  follows text (section 3's fix for the manual, for any document), and the slips it names.
- `exercises_numbered_titles`: exercise 02d.2, the numbered-title rule guarded against its
  misfires (a year, a sentence), and the slips it names.
- `exercises_parent_budget`: exercise 03.2's check (parents within a token budget).
- `exercises_child_repeats`: exercise 03h.1, per section the tokens its children store twice,
  and the slips it names.
- `exercises_parents_windows`: the checks of notebooks 03b and 03c (merged windows, filter then
  rank, the filter each document's newest version).
- `excerpt_inside`: is a benchmark answer whole inside one piece handed over, or in one
  stretch of the pieces merged (companion 03b's stricter test), and the top k chunks themselves.
- `parent_search`: a parent found by searching the parents or their children (small-to-big at
  k = 1), and the children alone judged on the spans they cover or in the same tokens.
- `window_evidence`: companion 03b's tables on notebook 03's four questions (five ways, per
  retriever and k, recall and tokens).
- `semantic_retrieval`: companion 04e's bookkeeping (chunks handed over up to a common token cap, a
  family's verdicts as a table; a family's fewest decisive questions is `claims.fewest_decisive`).
- `long_parents`: notebook 03d's bookkeeping, the answers across a block edge set apart, a
  block drawn at random, one corpus's scores picked out, the per-corpus table and the picture of
  each comparison against the block's length.
- `exercises_block_parent`: exercise 03d.2, the block that holds most of a child that does not
  nest, and the slips it names.
- `exercises_family_reading`: exercise 03d.3, a family of paired comparisons read at 0.05 / m,
  and the slips it names.
- `exercises_paired_interval`: exercise 01b.3, the paired interval by resampling the questions,
  and the slips it names.
- `exercises_sign_test`: exercise 01b.1, the exact two-sided sign test written from the
  per-question differences, and the slips it names (one side, ties counted, no cap at 1).
- `exercises_refresh`: exercise 03e.1, which documents a refresh chunks again, and the slips it
  names.
- `exercises_tenants`: exercise 03f.1, what a shared index holds after its calls, per tenant, and
  the slips it names.
- `exercises_fetch_factor`: exercise 03c.1, the learner's rule for the smallest factor of "fetch
  more, then filter", and the slips it names.
- `exercises_fingerprint`: exercise 03e.2, the learner's fingerprint of a document and every
  setting, and the slips it names.
- `command_line`: the `chunklab` command run in a scratch folder, printed as typed (companion 03e).
- `exercises_parent_lift`: exercise 03.1, child hits in any order lifted to their parents, and
  the slips it names.
- `exercises_measures`: the checks of notebooks 07 to 09, each naming the mistake it recognised.
- `exercises_reading`: exercises 07c.2 (the questions no one chunk can answer) and 07b.1 (which
  verdicts of a family stand at 0.05 / m), written by the learner, each slip named.
- `conversion_measures`: what a conversion kept, as words, headings and table rows (08, 08b).
- `plain_text_baseline`: 08's answers against a file's plain text, titled or not (`Survival`).
- `exercises_yardstick_flaws`: exercise 08c.1, a conversion's lead over its plain text with the
  yardstick's flaws left out, and the slips it names.
- `exercises_table_room`: exercise 05b.1's check (the room a table's rows need).
- `exercises_safe_size`: exercise 05c.1's check (rows a linearized cut loses, predicted, not swept).
- `exercises_paired_rows`: exercise 06b.1's check (two strategies' rows paired by question id).
- `exercises_family_size`: exercise 06b.2's check (the verdicts a family's size decides).
- `exercises_context_fit`: exercise 06c.1's check (a context sentence shortened to its room).
- `exercises_bold_table`: exercise 08.2's check (a table without a grid, from a bold header).
- `word_lines`: `pdfplumber`'s words as the lines the PDF converter reads (notebook 08).
- `running_lines`: lines repeated on every page, compared as given (08b.1's first slip).
- `lines_pdf`: a PDF of lines placed by hand (08b's numbered label atop each page).
- `exercises_running_heads`: exercise 08b.1's check (running lines that carry a page number).
- `split_table_ranks`: 08b's printers of a split table's pieces and BM25's word-by-word scores,
  a table's lines alone, a Word file's copy with its title emptied.
- `column_lines`: 08d's PDF lines read one column at a time, and the line a title starts.
- `exercises_heading_levels`: exercise 08d.1's check (a heading's level, a smaller bold one deeper).
- `answers_split_table`: exercise 08b.2's answer (the smallest budget at which the Word file's
  field table is one chunk) and the wrong budgets it names.
- `retriever_checks`: notebook 10b's exercise 10b.2 (BM25 against MiniLM on another cut, with
  its 95% interval) and its slips' hints.
- `fusion_checks`: exercise 10b.1's check (rank fusion by hand, from the retrievers' raw scores)
  and its slips' hints.
- `page_lines`: exercise 08.1's rule (a page's sized lines as Markdown) and its slips' hints.
- `pooling_checks`: exercises 09.1 and 09b.1 (masked mean, span pooling) and their slips' hints.
- `answers_fixed_structural`: the answer exercises of notebooks 01 to 02 and the wrong answers
  they know.
- `answers_stdevs`: exercise 04.1's answer (the smallest stdevs at which MiniLM's rule makes 5
  cuts, and the gaps it cuts there), registered in `answers_semantic`.
- `headless_pages`: sectioned pages with their headings removed (true starts nothing marks), and
  the chance floor of as many cuts at random sentence starts, and `BlankLines`, a cut at every
  blank line (04, 04c, 04d); `headless_scores`, 04d's section 1 table; `headless_retrieval`,
  notebook 04's retrieval run on those pages.
- `table_cuts`: 04d's section 2 (each breakpoint rule's cuts and orphans on the series' tables,
  and the gaps inside them, from which the notebook computes the chance floor).
- `cut_agreement`: 04c's section 4 (how many cuts two models share at every percentile, and how
  many of each model's cuts fall on a true topic change).
- `answers_small_to_big`: the answer exercises of notebooks 03 to 03c (small-to-big, sentence
  windows, filters) and the wrong answers they know.
- `exercises_room_order`: the check of 03g.1 (the children alone in the section's room, handed
  over in the document's order).
- `exercises_room_edges`: the check of 03d.1 (the first overlapping block that holds an answer).
- `answers_semantic`: the answer exercises of notebooks 04, 04b, 04c and 04e and the wrong
  answers they know.
- `answers_tables_prefixes`: the answer exercises of companions 05c and 05b, the same way.
- `prefix_baselines`: the baselines a skeptic runs against a path prefix: the same cut with the
  breadcrumb rewritten, and the title handed at answer time instead of indexed.
- `answers_experiments`: the answer exercises of notebooks 07 to 09b and the wrong answers they
  know.
- `answers_paired`: exercise 07c.1's answer (the family size m, then one paired comparison read
  inside its family of three retrievers) and the wrong answers it names, registered by
  `answers_experiments`.
- `answers_late_chunking`: exercise 09c.1's check (late chunking written from the model's
  reading, refused when it calls `chunklab.embeddings.late`) and the slips it names, registered
  by `exercises_measures`.
- `exercises_benchmark`: notebook 10's check (precision-Ω of fixed windows), joined into
  `exercises`.
- `exercises_verdict`: exercise 10d.1's check (`compare`'s rule by hand: the sign test and the
  two-part verdict), joined into `exercises_benchmark`.
- `exercises_windows`: companion 10c's checks (windows of word pieces with an overlap, and
  their precision-Ω with its known slips), joined into `exercises_benchmark`.
- `article_fixed`: the article's figures for its 200/40 cut, quoted, and notebook 01's checks
  of our numbers against them.
- `exercises_budget_size`: exercise 01c.1's check (the largest size in characters whose windows
  fit a token budget), each slip named.
- `exercises_won_lost`: 01.1's check (two cuts counted won/lost/tied from their spans, facts
  matched as whole words), joined into `exercises`.
- `exercises_headings_apart`: 02c.1's check (the headings no span holds with the first line of
  text after them), joined into `exercises`.
- `exercises_cut_tests`: the made-up pages (word list, random cuts) 01.1's and 02c.1's checks
  build their cases from.
- `exercises_heading_glue`: 02c.2's check (notebook 02c's glue fixed to carry a stack of
  headings to its text), joined into `exercises`.
- `exercises_code`: notebook 11's checks (cAST's merge of siblings, functions cut), joined into
  `exercises`.
- `exercises_code_family`: companion 11c's check, the tree's family of BM25 comparisons read as one
  (`tree_family(budget)`), each known slip named, its `compare` calls watched (the level, and the
  sign test read alone); joined into `exercises` via `exercises_code`.
- `exercises_split_lines`: companion 11b's check, the lines of a function its top chunks hold only
  together (`split_lines`), each known slip named; joined into `exercises` via `exercises_code`.
- `code_search`: code-search questions built CodeSearchNet's way (a docstring's first sentence
  asks, the function is the gold), a cut of the code scored by the lines it hands over.
- `code_peers`: the frameworks' code splitters (LangChain, LlamaIndex, Chonkie) at one token
  budget, and their chunks located in the source.
- `code_cut_sizes`: how big each cut of the code's chunks are (budget, MiniLM's read limit, the
  questions whose function a chunk cut off), and why a chunk passes its budget.
- `code_sweep`: the skeptic's cut of code with no parser (blocks at the least-indented lines,
  packed), and each definition measured as the syntax tree's cut counts it (breadcrumb included).
- `code_search_claims`: the code-search experiment's tables: every comparison of a family as one
  verdict table; words, tokens and word pieces per 200 characters.
- `fact_matching`: does one chunk hold every fact a question needs (whole words, accents
  folded): the count notebooks 01 and 02 read.
- `checking`:  what every exercise check shares: the verdict, "not yet", short renderings.
- `exercises_tables`, `exercises_prefixes`: notebook 05's and 06's checks, in `exercises`.
- `exercises_llm_reply`: companion 04b's check (a model's `split_after` reply read into piece
  numbers).
- `exercises_thresholds`: companion 04c's check (a percentile's cuts as a threshold).
- `exercises_llm_pass`: 04b.2's check (a first pass written from scratch: the calls it makes, a
  bad reply refused).
- `exercises_wide_buffer`: 04.3b's check (the buffered semantic cut, written from scratch).
- `exercises_cut_changes`: 04c.2's check (the percentile rule, written from scratch, scored
  against topic starts).
- `exercises_chance_floor`: 04d.1's check (the chance floor of a cut, counted exactly).
- `exercises_family_power`: 04e.1's check (a family's fewest decisive questions, all one way).
- `exercises_verdict_family`: 07.2's check (a verdict family from raw scores, at 0.05 / m).
- `exercises_gain_split`: 03g.2's check (a gain split in two halves, each with its untied
  questions).
- `read_fit`: the word pieces of every fixed-size chunk of a document at every size, from one
  encoding (notebook 09's sweep of the sizes MiniLM reads whole).
- `exercises_never_read`: 09.2's check (the characters a model never reads, from offsets and
  a limit, whatever markers it adds).
- `exercises_read_limit`: 09d.1's check (whether the part of a chunk the model reads holds
  the facts).
- `matched_windows`: fixed token windows at every size in a range, each compared with another
  cut and printed with its tokens per query; the size matched to that cut's tokens; a bar per size.
- `best_part`: a chunk longer than the embedder reads, cut where it stops and scored by its best
  part (multi-vector scoring), each later part embedded once.

May import everything below it; nothing in the library imports it.
"""
