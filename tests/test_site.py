"""The website, checked as a reader gets it (`make site-check`; not part of `make test`).

`make site` builds it with warnings as errors; then every internal link, image, stylesheet and
script of every built page must name a file that exists, and every `#anchor` an id in its page;
then every page is opened in Debian's headless Chromium (Playwright drives /usr/bin/chromium and
never downloads a browser of its own), served by a local HTTP server: each must have its title,
log no console error, and show every image it has (natural width > 0). External links are listed
with their HTTP status when a network is there, and skipped with a note when not. A screenshot of
one notebook page is written under `_build/` and its path printed.

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
