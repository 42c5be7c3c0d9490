"""What a file holds, read as a browser or a reader would (issue 39): an HTML page in the charset
it declares (or, without one, the one a detector finds, said in the warnings), and a file whose
suffix lies converted as what its first bytes say."""

import shutil

import pytest
from conftest import DATA, run_cli

from chunklab import read_document
from chunklab.documents.files import DocumentError

FORMATS = DATA / "formats"
PAGE = "<html><head>{meta}<title>Café</title></head><body><h1>Café</h1><p>{body}</p></body></html>"
BODY = "Le menu du café: crème brûlée, soupe à l'oignon, 12 €."


def page(meta: str, body: str = BODY) -> str:
    return PAGE.format(meta=meta, body=body)


@pytest.mark.parametrize(
    "meta",
    [
        '<meta charset="iso-8859-1">',
        "<meta charset=ISO-8859-1>",
        '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">',
        "<META HTTP-EQUIV='content-type' CONTENT='text/html;charset=latin1'>",
    ],
)
def test_an_html_page_in_the_charset_it_declares_is_read_as_a_browser_reads_it(tmp_path, meta):
    path = tmp_path / "menu.html"
    # iso-8859-1 is read as windows-1252 by browsers, the WHATWG table says: the euro sign too.
    path.write_bytes(page(meta).encode("windows-1252"))
    doc = read_document(path)
    assert BODY in doc.text and doc.title == "Café"
    assert "conversion_warnings" not in doc.metadata  # declared: nothing guessed
    done = run_cli("chunk", str(path))
    assert done.returncode == 0, done.stderr
    assert "crème brûlée" in done.stdout.decode()


def test_a_meta_inside_a_comment_or_past_1024_bytes_declares_nothing():
    from chunklab.documents.charsets import declared_encoding

    assert declared_encoding(b'<!-- <meta charset="koi8-r"> --><meta charset="latin1">') == (
        "cp1252",
        "latin1",
    )
    assert declared_encoding(b" " * 1024 + b'<meta charset="koi8-r">') is None
    assert declared_encoding(b'<meta charset="no-such-charset">') is None


def test_a_byte_order_mark_wins_over_the_meta():
    from chunklab.documents.charsets import decode_html

    raw = b"\xef\xbb\xbf" + page('<meta charset="iso-8859-1">').encode("utf-8")
    text, warnings = decode_html(raw, "p.html")
    assert BODY in text and warnings == []


def test_an_undeclared_page_that_is_not_utf8_is_detected_and_the_guess_is_said(tmp_path):
    path = tmp_path / "old.html"
    body = " ".join([BODY] * 20)  # enough text for a detector to go by
    path.write_bytes(page("", body).encode("windows-1252"))
    doc = read_document(path)
    assert BODY in doc.text
    [said] = doc.metadata["conversion_warnings"]
    assert said.startswith("no charset declared and not UTF-8: decoded as ")


def test_bytes_the_declared_charset_has_no_character_for_are_counted_not_dropped(tmp_path):
    path = tmp_path / "bad.html"
    path.write_bytes(page('<meta charset="utf-8">').encode("windows-1252"))  # it lies
    doc = read_document(path)
    assert "\ufffd" in doc.text
    assert any(
        w.endswith(
            'not valid utf-8 (declared by <meta> as "utf-8"), shown as U+FFFD as a '
            "browser shows them"
        )
        for w in doc.metadata["conversion_warnings"]
    )


# --- a suffix that lies ----------------------------------------------------------------------


def test_a_pdf_named_md_is_converted_as_a_pdf_with_a_warning(tmp_path):
    lying = tmp_path / "travel.md"
    shutil.copy(FORMATS / "travel_policy.pdf", lying)
    doc = read_document(lying)
    honest = read_document(FORMATS / "travel_policy.pdf")
    assert doc.text == honest.text and doc.metadata["format"] == "pdf"
    assert doc.metadata["conversion_warnings"][0] == (
        "named .md but the file is a PDF: converted as a PDF"
    )
    done = run_cli("chunk", str(lying))
    assert done.returncode == 0, done.stderr
    assert b"New York" in done.stdout


def test_a_word_file_named_pdf_and_an_html_page_named_pdf_are_converted_as_what_they_are(
    tmp_path,
):
    word = tmp_path / "manual.pdf"
    shutil.copy(FORMATS / "manual_md.docx", word)
    assert read_document(word).metadata["format"] == "docx"
    html = tmp_path / "paper.pdf"
    html.write_bytes(page('<meta charset="utf-8">').encode("utf-8"))
    doc = read_document(html)
    assert doc.metadata["format"] == "html" and BODY in doc.text
    assert doc.metadata["conversion_warnings"] == [
        "named .pdf but the file is an HTML page: converted as an HTML page"
    ]


def test_an_image_named_md_is_one_line_that_says_what_it_is(tmp_path):
    image = tmp_path / "notes.md"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    with pytest.raises(DocumentError, match=r"notes\.md: named \.md but the file is a PNG image"):
        read_document(image)
    done = run_cli("chunk", str(image))
    assert done.returncode == 2 and done.stderr.decode().count("\n") == 1
