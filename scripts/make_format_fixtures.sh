#!/usr/bin/env bash
# The converter fixtures in data/formats/: some of the series' own Markdown documents rendered to
# HTML and DOCX by pandoc and to PDF by headless Chromium printing that HTML, so their ground truth
# is the Markdown they came from. Tests read the committed results and never need these tools.
# Needs Debian's pandoc (2.17), chromium (156) and LibreOffice Writer (7.4):
# apt-get install pandoc chromium libreoffice-writer-nogui
set -euo pipefail
cd "$(dirname "$0")/.."
out=data/formats
mkdir -p "$out"
# Tables drawn with rules, as most tables in real PDFs are, so a PDF tool can see their cells.
css="$(mktemp --suffix=.css)"
trap 'rm -f "$css"' EXIT
printf 'table{border-collapse:collapse}th,td{border:1px solid #444;padding:2px 6px}\n' > "$css"
for name in travel_policy manual_md gdsway-managing-sensitive-information; do
  # the front matter's title: if there is none, the first heading; if none, the name
  title="$(sed -n '1{/^---$/!q};/^title: /{s/^title: //p;q}' "data/$name.md")"
  title="${title:-$(grep -m1 '^# ' "data/$name.md" | sed 's/^# //' || true)}"
  title="${title:-$name}"
  pandoc -f gfm+yaml_metadata_block -t html5 -s --self-contained --css "$css" --metadata title="$title" --metadata pagetitle="$title" \
    -V title= "data/$name.md" -o "$out/$name.html"
  pandoc -f gfm+yaml_metadata_block -t docx "data/$name.md" -o "$out/$name.docx"
  chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
    --print-to-pdf="$out/$name.pdf" "file://$PWD/$out/$name.html" 2>/dev/null
done


# The same policy printed with the page's own style, its table without rules: what many PDFs are.
pandoc -f gfm -t html5 -s --metadata title="Travel Policy" -V title= data/travel_policy.md -o "$out/unruled.html"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/travel_policy_unruled.pdf" "file://$PWD/$out/unruled.html" 2>/dev/null
rm "$out/unruled.html"

# Columns (issue 27): two of the 18F handbook's pages printed in two and in three columns, with a
# running head and a page number in the page margins (CSS margin boxes), as papers and registers
# are printed: the converter must read column by column and drop the page furniture.
columns() {  # columns NAME COUNT TITLE
  printf '@page{size:A4;margin:22mm 16mm;@top-center{content:"%s";font:9pt sans-serif}@bottom-center{content:counter(page);font:9pt sans-serif}}body{column-count:%s;column-gap:3em;font:10pt/1.35 serif;text-align:justify;hyphens:none;overflow-wrap:anywhere}h1{column-span:all}\n' "$3" "$2" > "$css"
  pandoc -f gfm+yaml_metadata_block -t html5 -s --self-contained --css "$css" --metadata title="$3" --metadata pagetitle="$3" \
    -V title= "data/$1.md" -o "$out/columns.html"
  chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
    --print-to-pdf="$out/$1_${2}col.pdf" "file://$PWD/$out/columns.html" 2>/dev/null
  rm "$out/columns.html"
}
columns 18f-work-schedules 2 "18F Handbook: Work schedules"
columns 18f-leave 3 "18F Handbook: Leave"

# PDFs as they are printed (issue 39), each with what a converter must read through.
# A register: the work schedules page numbered from 47699 (the page number at the outer corner,
# beside a running head, as the Federal Register prints them) with its headings numbered, bold
# and no larger than the body.
printf '@page{size:Letter;margin:22mm 18mm;@top-center{content:"Federal Register / Vol. 89, No. 108 / Rules and Regulations";font:8pt sans-serif}}@page:left{@top-left{content:counter(page);font:bold 9pt sans-serif}}@page:right{@top-right{content:counter(page);font:bold 9pt sans-serif}}html{counter-reset:page 47698}body{font:10pt/1.35 serif;margin:0;padding:0;max-width:none}h1,h2,h3,h4,h5,h6{font-size:1em;font-weight:bold;margin:1em 0 .3em}\n' > "$css"
pandoc -f gfm+yaml_metadata_block -t html5 -s --self-contained --shift-heading-level-by=-1 --number-sections --css "$css" \
  --metadata title="Work schedules" -V title= data/18f-work-schedules.md -o "$out/register.html"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/18f-work-schedules_register.pdf" "file://$PWD/$out/register.html" 2>/dev/null
rm "$out/register.html"
# Digits set wide: the policy with its ruled table's figures letter-spaced, as a spreadsheet
# printed to PDF sets them; PDFium reads a gap in each.
printf 'table{border-collapse:collapse}th,td{border:1px solid #444;padding:2px 6px}td+td{letter-spacing:.15em}\n' > "$css"
pandoc -f gfm -t html5 -s --self-contained --css "$css" --metadata title="Travel Policy" -V title= data/travel_policy.md -o "$out/spaced.html"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/travel_policy_spaced.pdf" "file://$PWD/$out/spaced.html" 2>/dev/null
rm "$out/spaced.html"
# A landscape page as a scanner or LaTeX's pdflscape leaves it: the policy printed on A4 landscape,
# then each page drawn on its side on a portrait sheet that is turned a quarter (/Rotate 90) for
# reading, so the file's coordinates run down the page and only the turn makes it read across.
printf '@page{size:A4 landscape}table{border-collapse:collapse}th,td{border:1px solid #444;padding:2px 6px}\n' > "$css"
pandoc -f gfm -t html5 -s --self-contained --css "$css" --metadata title="Travel Policy" -V title= data/travel_policy.md -o "$out/landscape.html"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/landscape.pdf" "file://$PWD/$out/landscape.html" 2>/dev/null
.venv/bin/python - "$out" <<'PY'
import sys
import pypdfium2
import pypdfium2.raw as pdfium_c
pdf = pypdfium2.PdfDocument(f"{sys.argv[1]}/landscape.pdf")
for page in pdf:
    width, height = page.get_size()
    # on its side (x' = height - y, y' = x) on a portrait sheet, turned back for reading
    pdfium_c.FPDFPage_TransFormWithClip(page.raw, pdfium_c.FS_MATRIX(0, 1, -1, 0, height, 0), None)
    page.set_mediabox(0, 0, height, width)
    page.set_rotation(90)
pdf.save(f"{sys.argv[1]}/travel_policy_landscape.pdf")
PY
rm "$out/landscape.html" "$out/landscape.pdf"
# Columns written across: the file holds the left column's first line, then the right's, then the
# left's second... (scripts/write_across_columns_pdf.py; Chromium writes column by column).
.venv/bin/python scripts/write_across_columns_pdf.py data/topics.md "$out/topics_across.pdf"
# A page mixing columns and a figure: numbered paragraphs in two columns around a drawing that
# spans them, its labels (text) over the gutter (scripts/field_kit.md and its SVG, written for
# this series).
printf '@page{size:A4;margin:20mm}body{column-count:2;column-gap:2em;font:10pt/1.35 serif;text-align:justify;max-width:none;margin:0;padding:0}header,figure{column-span:all}figure{margin:1em 0}img{width:100%%}.footnotes{font-size:8pt}\n' > "$css"
pandoc -f markdown -t html5 -s --self-contained --css "$css" --resource-path=scripts scripts/field_kit.md -o "$out/figure.html"
chromium --headless --no-sandbox --disable-gpu --no-pdf-header-footer \
  --print-to-pdf="$out/field_kit_figure.pdf" "file://$PWD/$out/figure.html" 2>/dev/null
rm "$out/figure.html"

# A Word file holding what Word files hold and Markdown has no form for: a footnote, a nested
# list, cells merged across columns and rows, a table without a header row, a text box. Written
# by hand as flat ODF (scripts/word_features.fodt) and saved as .docx by LibreOffice
# (Debian's libreoffice-writer-nogui, 7.4): apt-get install libreoffice-writer-nogui
soffice --headless --convert-to docx --outdir "$out" scripts/word_features.fodt >/dev/null 2>&1

# Files a converter must refuse, each with one line that says why:
# a scan (the first page as a picture, no text layer) and an encrypted copy (Debian's qpdf).
.venv/bin/python - "$out" <<'PY'
import sys
import pypdfium2
page = pypdfium2.PdfDocument(f"{sys.argv[1]}/travel_policy.pdf")[0]
page.render(scale=1).to_pil().convert("L").save(f"{sys.argv[1]}/scanned.pdf", resolution=72)
PY
qpdf --encrypt secret secret 256 -- "$out/travel_policy.pdf" "$out/encrypted.pdf"
ls -l "$out"
