"""The website, checked as a reader gets it (`make site-check`; not part of `make test`).

`make site` builds it with warnings as errors; then every internal link, image, stylesheet and
script of every built page must name a file that exists, and every `#anchor` an id in its page;
then every page is opened in Debian's headless Chromium (Playwright drives /usr/bin/chromium and
never downloads a browser of its own), served by a local HTTP server: each must have its title,
log no console error, and show every image it has (natural width > 0). External links are listed
with their HTTP status when a network is there, and skipped with a note when not. A screenshot of
one notebook page is written under `_build/` and its path printed. Every output of every notebook
page is measured at 1280 px and at 390 px: the check fails on one cut off at 1280 px (wider than its
box, which does not scroll), and prints per page how many are wider than the content column, scroll
or are cut off, at both widths.

The link checker is plain Python; the first test proves it finds a broken link and a missing
anchor, in milliseconds, so it runs in `make test` too.
"""

import contextlib
import functools
import http.server
import importlib.util
import os
import posixpath
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from conftest import ROOT, loopback_works

SITE = ROOT / "_build" / "site"
SCREENSHOT = ROOT / "_build" / "site-check" / "01_fixed_size.png"
CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class Page(HTMLParser):
    """The ids a page defines and the addresses it refers to (links, images, styles, scripts)."""

    REFERS = {("a", "href"), ("img", "src"), ("link", "href"), ("script", "src")}

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[tuple[str, str]] = []  # (tag, address)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name in ("id", "name") and (name == "id" or tag == "a"):
                self.ids.add(value)
            if (tag, name) in self.REFERS:
                self.refs.append((tag, value))


@functools.cache
def read_page(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def site_pages(site: Path) -> list[Path]:
    """Every built page; not the theme's Jinja macro files it copies into `_static/` unrendered."""
    return [p for p in sorted(site.rglob("*.html")) if p.relative_to(site).parts[0] != "_static"]


def broken_links(site: Path) -> tuple[list[str], set[str]]:
    """Internal addresses that lead nowhere (file or anchor), and the external ones found."""
    broken, external = [], set()
    for path in site_pages(site):
        for tag, address in read_page(path).refs:
            parts = urlsplit(address)
            if parts.scheme in ("http", "https"):
                external.add(address)
                continue
            if parts.scheme or address.startswith("//"):
                continue  # mailto:, javascript:, data: ...
            where = f"{path.relative_to(site)}: <{tag}> {address}"
            target = (
                path
                if not parts.path
                else Path(posixpath.normpath(path.parent / unquote(parts.path)))
            )
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or not target.resolve().is_relative_to(site.resolve()):
                broken.append(f"{where}: no such file")
            elif parts.fragment and target.suffix == ".html":
                if unquote(parts.fragment) not in read_page(target).ids:
                    broken.append(f"{where}: no id {parts.fragment!r} in {target.name}")
    return broken, external


def test_the_link_checker_finds_a_missing_page_and_a_missing_anchor(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.html").write_text(
        '<h1 id="top">One</h1><a href="two.html#there">ok</a><a href="#top">ok</a>'
        '<a href="two.html#nowhere">bad anchor</a><a href="../gone.html">bad page</a>'
        '<img src="pic.png"><a href="https://example.org/x">out</a>',
        encoding="utf-8",
    )
    (tmp_path / "a" / "two.html").write_text('<p id="there">Two</p>', encoding="utf-8")
    broken, external = broken_links(tmp_path)
    assert broken == [
        "a/one.html: <a> two.html#nowhere: no id 'nowhere' in two.html",
        "a/one.html: <a> ../gone.html: no such file",
        "a/one.html: <img> pic.png: no such file",
    ]
    assert external == {"https://example.org/x"}


def test_docstrings_written_for_help_become_valid_rst_lists_and_literal_blocks():
    spec = importlib.util.spec_from_file_location("plain", ROOT / "docs/_ext/plain_docstrings.py")
    assert spec and spec.loader
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    written = [
        "Records",
        "- `contracts`: the records",
        "  (01, 07)",
        "- `version`: the version",
        "Then a paragraph, and an example:",
        "",
        "    questions:",
        "      - id: q1",
        "",
        "Done.",
    ]
    assert plain.bridge(written) == [
        "Records",
        "",
        "- `contracts`: the records",
        "  (01, 07)",
        "- `version`: the version",
        "",
        "Then a paragraph, and an example::",
        "",
        "    questions:",
        "      - id: q1",
        "",
        "Done.",
    ]


# --- the built site ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site() -> Path:
    """`make site`, the very command the publishing workflow runs, with warnings as errors."""
    done = subprocess.run(["make", "site"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"make site failed:\n{done.stdout[-4000:]}\n{done.stderr[-8000:]}"
    read_page.cache_clear()
    return SITE


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    with serving(site) as address:
        yield address


@contextlib.contextmanager
def serving(folder: Path) -> Iterator[str]:
    """A local HTTP server for `folder`, on a free port, in a thread; its address."""
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request: object, client_address: object) -> None:
        """A page left before a file was sent whole (a broken pipe) is no fault of the site."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site silently, but remembers every address it could not serve.

    The browser's console says only "Failed to load resource: 404", on whichever page is open when
    the answer arrives (a request the browser makes by itself, like /favicon.ico, lands on a page
    at random); the server knows which address it was.
    """

    missing: list[str] = []  # "404 /favicon.ico", in the order asked

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        if isinstance(code, int) and code >= 400:  # HTTPStatus is an int
            QuietHandler.missing.append(f"{int(code)} {self.path}")


@pytest.mark.skipif(not loopback_works(), reason="no loopback interface (network cut)")
def test_the_server_names_every_address_it_could_not_serve(tmp_path):
    (tmp_path / "here.html").write_text("<title>here</title>", encoding="utf-8")
    QuietHandler.missing.clear()
    with serving(tmp_path) as base:
        with urllib.request.urlopen(base + "here.html", timeout=10) as response:
            assert response.status == 200
        for address in ("favicon.ico", "_static/gone.css?v=1"):
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(base + address, timeout=10)
    assert QuietHandler.missing == ["404 /favicon.ico", "404 /_static/gone.css?v=1"]


@pytest.mark.site
def test_every_internal_link_and_anchor_resolves_and_external_links_are_listed(site):
    pages = site_pages(site)
    broken, external = broken_links(site)
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    print(f"\n{len(pages)} pages; {len(notebooks)} notebook pages; {len(external)} external links")
    assert sorted(p.stem for p in (site / "notebooks").glob("*.html")) == notebooks
    assert broken == [], "\n".join(broken)
    list_external(sorted(external))


def list_external(urls: list[str]) -> None:
    hosts = sorted({urlsplit(u).hostname or "" for u in urls})
    if not any(reachable(h) for h in hosts[:5]):
        print(f"external links: skipped, no network here ({len(urls)} links, {len(hosts)} hosts)")
        return
    with ThreadPoolExecutor(8) as pool:
        for url, status in zip(urls, pool.map(http_status, urls), strict=True):
            print(f"external {status}: {url}")


def reachable(host: str) -> bool:
    try:
        socket.create_connection((host, 443), timeout=3).close()
    except OSError:
        return False
    return True


def http_status(url: str) -> str:
    request = urllib.request.Request(url, method="HEAD", headers={"User-Agent": "chunklab-site"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return str(response.status)
    except urllib.error.HTTPError as error:
        return str(error.code)
    except (urllib.error.URLError, OSError) as error:
        return f"unreachable ({error})"


@pytest.mark.site
def test_every_page_opens_in_chromium_with_its_title_no_console_error_and_its_images(
    site, server, tmp_path
):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the docs extra: make site-check")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: apt-get install chromium (Debian's package)")
    pages = [p.relative_to(site).as_posix() for p in site_pages(site)]
    problems: list[str] = []
    QuietHandler.missing.clear()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS
        )
        tab = browser.new_page()
        errors: list[str] = []
        tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e: errors.append(str(e)))
        for name in pages:
            errors.clear()
            tab.goto(server + name, wait_until="load")
            problems += [f"{name}: {p}" for p in page_problems(tab, errors)]
            if name == "notebooks/01_fixed_size.html":
                SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                tab.screenshot(path=str(SCREENSHOT), full_page=False)
        found = search(tab, server, "overlap")
        problems += [] if any("01_fixed_size" in f for f in found) else [f"search: {found}"]
        browser.close()
    problems += [f"the server could not serve {m}" for m in QuietHandler.missing]
    print(f"search for 'overlap': {len(found)} pages found, the first {found[:3]}")
    print(f"\nopened {len(pages)} pages in {CHROMIUM}; screenshot: {SCREENSHOT}")
    assert SCREENSHOT.stat().st_size > 10_000
    assert problems == [], "\n".join(problems)


# --- do the notebooks' outputs fit the page? ----------------------------------------------------

WIDE, NARROW = 1280, 390  # a laptop's window, and a phone's (an iPhone's 390 CSS pixels)

# Every output of every code cell (MyST-NB puts each in `div.cell_output`: a stream or plain-text
# output is a `div.output` holding a <pre>, a DataFrame a `div.output.text_html` holding a <table>,
# a figure an <img>), measured against the article's content column. An element whose content is
# wider than its box either scrolls (overflow-x auto or scroll: a reader can reach all of it) or
# does not: clipped by its own overflow (hidden, clip), or spilling out (visible) with no box up to
# the content column that scrolls it, so it runs under the sidebar or off the screen. That is
# "cut off". `wider` counts the outputs whose widest content is wider than the column's content box.
MEASURE_OUTPUTS = """() => {
  const column = document.querySelector("article.bd-article") || document.querySelector("main");
  const style = getComputedStyle(column);
  const room = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const scrolls = e => ["auto", "scroll"].includes(getComputedStyle(e).overflowX);
  const clips = e => ["hidden", "clip"].includes(getComputedStyle(e).overflowX);
  const wraps = pre => {  // more lines on the screen than in the text: a line was wrapped
    const s = getComputedStyle(pre);
    const size = parseFloat(s.fontSize);
    const line = s.lineHeight === "normal" ? 1.2 * size : parseFloat(s.lineHeight);
    const high = pre.clientHeight - parseFloat(s.paddingTop) - parseFloat(s.paddingBottom);
    return Math.round(high / line) > pre.innerText.replace(/\\n+$/, "").split("\\n").length;
  };
  const outputs = Array.from(document.querySelectorAll("div.cell_output > *"));
  return {room: Math.round(room), outputs: outputs.map((output, n) => {
    let widest = 0, cut = false, scrolled = false;
    for (const e of [output, ...output.querySelectorAll("*")]) {
      widest = Math.max(widest, e.scrollWidth);
      if (e.clientWidth === 0 || e.scrollWidth <= e.clientWidth + 1) continue;  // fits its box
      if (scrolls(e)) { scrolled = true; continue; }
      if (clips(e)) { cut = true; continue; }
      let up = e.parentElement, reachable = false;  // visible: spills, unless a box up scrolls
      while (up && up !== column) {
        if (scrolls(up)) { reachable = true; break; }
        if (clips(up)) break;
        up = up.parentElement;
      }
      if (reachable) scrolled = true; else cut = true;
    }
    const cell = output.closest("div.cell");
    const where = (cell && cell.querySelector(".cell_input pre")?.innerText.split("\\n")[0]) || "";
    const pre = output.matches("pre") ? output : output.querySelector("pre");
    const text = pre !== null && output.querySelector("table") === null;
    return {n, widest, cut, scrolled, text, wrapped: text && wraps(pre), where: where.slice(0, 60)};
  })};
}"""


def measure_outputs(tab, server: str, page: str, width: int) -> dict:
    """The content column's width and each output's widest content, at one window width."""
    tab.set_viewport_size({"width": width, "height": 900})
    tab.goto(server + page, wait_until="load")
    return tab.evaluate(MEASURE_OUTPUTS)


def fitting(measured: dict) -> dict[str, int]:
    """Per page: outputs, wider than the content column, scrolled within their box, cut off, and
    text outputs with a line wrapped to fit (fine for prose; an aligned table must not wrap)."""
    outputs = measured["outputs"]
    return {
        "outputs": len(outputs),
        "wider": sum(o["widest"] > measured["room"] + 1 for o in outputs),
        "scroll": sum(o["scrolled"] and not o["cut"] for o in outputs),
        "cut": sum(o["cut"] for o in outputs),
        "wrapped": sum(o["wrapped"] for o in outputs),
    }


def open_browser(playwright, profile: Path):
    return playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS
    )


@pytest.mark.site
def test_the_output_measure_tells_a_cut_off_output_from_one_that_scrolls(tmp_path):
    """A crafted page: a clipped or a spilling <pre> is cut off; one that scrolls is not."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the docs extra: make site-check")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: apt-get install chromium (Debian's package)")
    line = "x" * 400
    cells = [
        f'<div class="cell"><div class="cell_output"><pre style="{css}">{line}</pre></div></div>'
        for css in ("overflow-x: auto", "overflow-x: hidden", "overflow: visible", "")
    ] + [
        '<div class="cell"><div class="cell_output"><pre>short</pre></div></div>',
        f'<div class="cell"><div class="cell_output"><pre style="white-space: pre-wrap">'
        f"{'word ' * 100}</pre></div></div>",
    ]
    (tmp_path / "page.html").write_text(
        '<title>t</title><div style="width: 300px"><article class="bd-article">'
        + "".join(cells)
        + "</article></div>",
        encoding="utf-8",
    )
    with sync_api.sync_playwright() as playwright, serving(tmp_path) as base:
        browser = open_browser(playwright, tmp_path / "profile")
        measured = measure_outputs(browser.new_page(), base, "page.html", WIDE)
        browser.close()
    assert [(o["cut"], o["scrolled"]) for o in measured["outputs"]] == [
        (False, True),
        (True, False),
        (True, False),
        (True, False),
        (False, False),
        (False, False),
    ]
    assert [o["wrapped"] for o in measured["outputs"]] == [False] * 5 + [True]
    assert fitting(measured) == {"outputs": 6, "wider": 4, "scroll": 1, "cut": 3, "wrapped": 1}


@pytest.mark.site
def test_no_notebook_output_is_cut_off_at_1280px_and_phones_are_counted(site, server, tmp_path):
    """Fails on an output cut off at 1280 px (content a reader can neither see nor scroll to), and
    on a text output wider than the content column there (text wraps; only a table may scroll).
    Prints per notebook page: outputs / wider than the content column / scrolling / cut off /
    text with a wrapped line, at 1280 px and at 390 px (the phone's figures are a report only)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the docs extra: make site-check")
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} not found: apt-get install chromium (Debian's package)")
    pages = sorted(p.relative_to(site).as_posix() for p in (site / "notebooks").glob("*.html"))
    cut_off: list[str] = []
    wide_text: list[str] = []
    totals = {width: Counter() for width in (WIDE, NARROW)}
    print("\nnotebook outputs: all / wider than the content column / scroll / cut off / wrapped")
    with sync_api.sync_playwright() as playwright:
        browser = open_browser(playwright, tmp_path / "profile")
        tab = browser.new_page()
        for page in pages:
            line = []
            for width in (WIDE, NARROW):
                measured = measure_outputs(tab, server, page, width)
                counts = fitting(measured)
                totals[width].update(counts)
                line.append(f"{width} px: " + " / ".join(map(str, counts.values())))
                if width == WIDE:
                    cut_off += [f"{page}: {cut}" for cut in cut_outputs(measured)]
                    wide_text += [f"{page}: {wide}" for wide in wide_text_outputs(measured)]
            print(f"{Path(page).stem:>26}: " + "; ".join(line))
        browser.close()
    for width, counts in totals.items():
        print(f"{'all pages':>26}: {width} px: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    assert cut_off == [], f"{len(cut_off)} outputs cut off at {WIDE} px:\n" + "\n".join(cut_off)
    assert wide_text == [], f"{len(wide_text)} text outputs wider than the column:\n" + "\n".join(
        wide_text
    )


def wide_text_outputs(measured: dict) -> list[str]:
    """Each text output (a <pre>, no table) wider than the content column: it should wrap."""
    room = measured["room"]
    return [
        f"output {o['n']} ({o['widest']} px in a {room} px column) of `{o['where']}`"
        for o in measured["outputs"]
        if o["text"] and o["widest"] > room + 1
    ]


def cut_outputs(measured: dict) -> list[str]:
    """Each cut-off output: its number on the page, its width and the first line of its cell."""
    room = measured["room"]
    return [
        f"output {o['n']} ({o['widest']} px in a {room} px column) of `{o['where']}`"
        for o in measured["outputs"]
        if o["cut"]
    ]


def search(tab, server: str, word: str) -> list[str]:
    """The pages the site's search box finds for a word (Sphinx's index, read by its script)."""
    tab.goto(f"{server}search.html?q={word}", wait_until="load")
    finished = '() => document.getElementById("search-results")?.innerText.includes("finished")'
    tab.wait_for_function(finished, timeout=30_000)  # results are shown one by one until then
    return tab.eval_on_selector_all("#search-results ul.search li a", "els => els.map(a => a.href)")


HEADINGS = """() => Array.from(document.querySelectorAll("h1"))
  .map(h => h.innerText.replace(/#$/, "").trim())"""
LOAD_IMAGES = """async () => {
  const images = Array.from(document.images);
  images.forEach(i => { i.loading = "eager"; });
  await Promise.all(images.map(i => i.complete ? null : new Promise(r => {
    i.addEventListener("load", r); i.addEventListener("error", r); })));
  return images.filter(i => !(i.naturalWidth > 0)).map(i => i.getAttribute("src"));
}"""


def page_problems(tab, errors: list[str]) -> list[str]:
    """What a reader of this page would see wrong: no title or heading, an error, a blank image."""
    problems = [f"console error: {e}" for e in errors]
    title, headings = tab.title(), tab.evaluate(HEADINGS)
    if not any(h and title.startswith(h) for h in headings):
        problems.append(f"title {title!r} is not the page's heading (h1: {headings})")
    problems += [f"image not loaded: {src}" for src in tab.evaluate(LOAD_IMAGES)]
    return problems


@pytest.mark.site
def test_the_api_reference_shows_every_split_and_no_framework_boilerplate(site):
    """Each chunker's `split` and the first line of its docstring on the API page; pydantic's
    `model_config` and namedtuple's "Alias for field number" on no page (the rules themselves are
    checked without a build in tests/test_api_docs.py)."""
    import re

    import chunklab

    texts = {p: p.read_text(encoding="utf-8") for p in site_pages(site)}
    boilerplate = [
        str(p.relative_to(site))
        for p, text in texts.items()
        if "model_config" in text or "Alias for field number" in text
    ]
    assert boilerplate == [], f"framework boilerplate on {boilerplate}"
    api = site / "api.html"
    shown = plain(re.sub(r"<[^>]+>", "", texts[api]))
    public = [getattr(chunklab, name) for name in chunklab.__all__]
    chunkers = [c for c in public if isinstance(c, type) and "split" in vars(c)]
    assert len(chunkers) >= 6, chunkers  # the protocol and the five chunkers chunklab exports
    for chunker in chunkers:
        assert f"chunklab.{chunker.__name__}.split" in read_page(api).ids, chunker
        assert plain(chunker.split.__doc__.split("\n")[0]) in shown, chunker


def plain(text: str) -> str:
    """Text as a reader sees it, to compare a docstring with a page: entities decoded, curly
    quotes straight, no backticks, white space collapsed."""
    import html

    text = html.unescape(text).translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\"", "`"))
    return " ".join(text.split())
