"""Every slide deck and site page of the course, opened in a real headless browser (tools/browser_check.py).

The check itself (marked ``browser``: ``make check-slides`` runs it, ``make test`` does not) checks
every deck at 1280x720 and every site page of the course (sidebar, search from disk, math,
explorers), after the static checks of the built site and decks; when it passes, and the
checker's and the explorers' browser tests with it, tests/conftest.py writes its verdict down
with the files it was reached from (tools/browser_record.py). ``make test`` checks
that the record matches the course as it is: a change no browser has seen fails there, naming the
files. tests/tools/test_browser_checker.py proves, on a tiny course made there, that the check
finds each fault it claims to find (so a pass here means something), keeps only what passed, and
leaves no browser process behind.
"""

import os
import platform

import pytest

from tests.tools import test_tools  # the static checks of a built site and decks
from tools import browser_check, browser_record
from tools.paths import ROOT, course_notebooks

NOTEBOOKS = course_notebooks()


def test_the_browser_check_has_seen_this_version_of_the_course():
    changes = browser_record.differences()
    if changes:
        shown = changes[:40] + ([f"... and {len(changes) - 40} more"] if len(changes) > 40 else [])
        pytest.fail(
            "The browser check has not seen the course as it is now. What its record, "
            f"{browser_record.RECORD.relative_to(ROOT)}, does not cover:\n  "
            + "\n  ".join(shown)
            + "\nRun `make check-slides`: when every deck and page passes it writes the record anew; "
            "commit it with your change.",
            pytrace=False,
        )


@pytest.mark.browser
@pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks")
def test_every_deck_and_site_page_of_the_course_passes_the_browser_check(tmp_path, browser_verdict):
    # The files the verdict is reached from, as they are before anything is built from them.
    before = browser_record.input_hashes()
    # `make check-slides CHECK_ARGS=--no-cache` reopens every deck and page, the results kept aside.
    cache = None if os.environ.get("BROWSER_CHECK_NO_CACHE") else browser_check.CACHE
    report = browser_check.check(None, out=tmp_path / "build", cache=cache, search=browser_check.SEARCH)
    # First what needs no browser: every page built, in course order, offline, links resolve.
    test_tools.assert_course_builds(tmp_path / "build" / "site", tmp_path / "build" / "slides", NOTEBOOKS)
    print(report.summary())
    assert sorted(report.slides) == [path.stem for path in NOTEBOOKS]
    assert all(count > 0 for count in report.slides.values()), report.summary()
    # Every page was opened (index, notebooks, 00's tracks, the guide, search.html) and each checked
    # its sidebar; the search index, read from disk, finds a word of notebook 12 on its page.
    assert sorted(report.pages) == sorted(
        [
            "index.html",
            "tracks.html",
            "TEACHING.html",
            "search.html",
            *(path.stem + ".html" for path in NOTEBOOKS),
        ]
    ), report.pages
    assert browser_check.SEARCH[1] in report.searches[browser_check.SEARCH[0]], report.searches
    shown = report.problems[:80]
    if len(report.problems) > 80:
        shown.append(f"... and {len(report.problems) - 80} more")
    assert report.ok, "\n".join(shown + [report.summary()])
    after = browser_record.input_hashes()
    saved = sorted(name for name in after.keys() | before.keys() if before.get(name) != after.get(name))
    assert saved == [], (
        f"files changed while the check ran (it may have seen either version): {saved[:10]}; run it again"
    )
    # Handed in, not written: tests/conftest.py writes the record once the session is over, if
    # everything in it passed, the checker's and the explorers' browser tests too.
    browser_verdict.update(
        hashes=before,
        checked={
            "window": "x".join(map(str, report.size)),
            "browser": report.browser,
            "python": platform.python_version(),
            "decks": len(report.slides),
            "slides": sum(report.slides.values()),
            "site pages": len(report.pages),
            "explorers": sum(report.explorers.values()),
            "decks and pages whose result came from the cache": len(report.cached),
        },
    )


def test_index_summaries_show_subscripts_not_raw_text(tmp_path):
    from tools import deck_html

    assert deck_html.summary_html("a rotation T_k and W_q W_kᵀ, ω_i; sinusoidal_pe") == (
        "a rotation T<sub>k</sub> and W<sub>q</sub> W<sub>k</sub>ᵀ, ω<sub>i</sub>; sinusoidal_pe"
    )
    assert deck_html.summary_html("$x_i$ <b>") == "$x_i$ &lt;b&gt;"


def test_sizes_parse():
    assert browser_check.parse_size("1024x768") == (1024, 768)
    with pytest.raises(Exception, match="WIDTHxHEIGHT"):
        browser_check.parse_size("big")
    assert os.fspath(browser_check.SCRIPT).endswith("tools/npm_packages/check_browser.mjs")
