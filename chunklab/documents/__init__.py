"""Documents in: files by path (Markdown, text, HTML, Word, PDF) and the series' own by name.

- `files`:   which suffixes are documents (declared once), decoding bytes, finding files in folders,
             and `DocumentError`, the one error for a file that cannot become a `Document`.
- `charsets`: an HTML file's bytes to text as a browser decodes them (BOM, `<meta charset>`,
             else a detector's guess, said in the warnings).
- `signatures`: what a file is from its first bytes, when its suffix lies.
- `convert`: HTML, Word and PDF to Markdown (the step before the cut, notebook 08).
- `pdf`:     PDF to Markdown with pypdfium2 (headings from font sizes, paragraphs, lists, tables).
- `pdf_words`: PDFium's text layer as words (boxes, sizes, weights, turned pages) and fragments.
- `pdf_layout`: a PDF page's reading order (columns, bands) and its page furniture.
- `pdf_grid`: ruled tables in a PDF page, from the rules its paths draw.
- `html`:    HTML parsed as a browser does (html5lib), nesting bounded, converted to Markdown;
             header-less tables and merged cells made readable, and said so (in warnings).
- `docx`:    Word through mammoth's HTML and `html`; mammoth's messages and comments kept as
             warnings; the title from the core properties (`docProps/core.xml`).
- `reading`: any file as a `Document`, with the title a reader would give it.
- `series`:  the series' documents in `data/`, by name.

May import: `chunklab.contracts`, `chunklab.parsing`, `chunklab.tokens`.
"""
