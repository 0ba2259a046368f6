"""The web app in a real browser (headless Chromium driven by Playwright): a whole game played
by clicking, a kept game replayed, two agents watched, at 1280x800 and at a phone's size.

Skipped, saying why, where Playwright or a Chromium is missing. Playwright's own browser
download is not needed: a system Chromium is used (``/usr/bin/chromium``, Debian's
``chromium`` package; another one with ``HOSTWCG_CHROMIUM=PATH``).
"""

from __future__ import annotations

import json
import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
pytest.importorskip("playwright", reason="Playwright is not installed (pip install playwright)")

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from hostwcg_env.testing.web_server import running  # noqa: E402
from hostwcg_env.web.files import Roots  # noqa: E402
from hostwcg_env.web.sessions import Hub  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_MS = 60_000


def _chromium() -> str | None:
    for path in (os.environ.get("HOSTWCG_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium",
                 shutil.which("chromium-browser"), shutil.which("google-chrome")):
        if path and Path(path).exists():
            return path
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    exe = _chromium()
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe) if exe else p.chromium.launch()
        except Exception as e:  # no browser: Playwright's download is missing and no system Chromium
            pytest.skip(f"no Chromium to drive (install Debian's 'chromium' or set HOSTWCG_CHROMIUM): "
                        f"{str(e).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from hostwcg_env.analysis.recordfile import iter_records

    base = tmp_path_factory.mktemp("web")
    (base / "results").mkdir()
    (base / "reports").mkdir()
    src = sorted((ROOT / "agents" / "ladder_results").glob("*.jsonl.gz"))[0]
    rec = next(r for r in iter_records(src, warn=False) if r["actions"])
    (base / "results" / "kept.jsonl").write_text(json.dumps(rec) + "\n")
    (base / "reports" / "report.html").write_text("<html><body><h1>Balance report</h1></body></html>")
    hub = Hub(Roots.of([base / "results"], [base / "reports"]))
    with running(hub) as port:
        yield f"http://127.0.0.1:{port}/"


def _states(page: Page) -> int:
    return int(page.evaluate("() => +(document.body.dataset.states || 0)"))


def _wait_state(page: Page, after: int) -> None:
    page.wait_for_function(f"() => +(document.body.dataset.states || 0) > {after}", timeout=TIMEOUT_MS)


def _fits(page: Page) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1"))


def _play_by_clicking(page: Page, rng: random.Random, max_moves: int = 400) -> dict[str, int]:
    """Click legal choices until the game ends: highlighted cards and slots, the decision's
    buttons, a menu's entries, and sometimes the keys (Space: pass, Enter: confirm)."""
    done = {"moves": 0, "clicks_on_board": 0, "keys": 0, "menus": 0}
    while done["moves"] < max_moves:
        if page.locator("#over").is_visible():
            return done
        n = _states(page)
        board = page.locator("#table .can")
        buttons = page.locator("#decision > .btns button")
        has_pass = page.locator("#decision > .btns button.pass").count() > 0
        if has_pass and rng.random() < 0.25:
            page.keyboard.press("Space")
            done["keys"] += 1
        elif board.count() and (rng.random() < 0.7 or not buttons.count()):
            board.nth(rng.randrange(board.count())).click()
            done["clicks_on_board"] += 1
            if page.locator("#menu").is_visible():
                entries = page.locator("#menu button")
                entries.nth(rng.randrange(entries.count())).click()
                done["menus"] += 1
        elif buttons.count():
            buttons.nth(rng.randrange(buttons.count())).click()
        else:
            raise AssertionError(f"nothing to click: {page.locator('#decision').inner_text()!r}")
        _wait_state(page, n)
        done["moves"] += 1
    raise AssertionError(f"the game did not end in {max_moves} moves")


@pytest.mark.slow
def test_a_whole_game_against_ppo_v1_played_by_clicking(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(site)
    page.wait_for_function("() => document.querySelector('#form-play select[name=vs]').options.length > 1",
                           timeout=TIMEOUT_MS)
    assert page.locator("#form-play select[name=vs]").input_value() == "ppo_v1"  # the default opponent
    page.fill("#form-play input[name=seed]", "3")
    page.click("#start-play")
    _wait_state(page, 0)
    assert _fits(page), "the board is wider than a 1280x800 window"
    page.locator("[data-place='A.host']").hover()
    assert page.locator("#cardinfo").inner_text() != "Hover a card to read it."
    done = _play_by_clicking(page, random.Random(5))
    over = page.locator("#over").inner_text()
    assert "Game over" in over and ("rule" in over or "RuleConfig" in over), over
    assert page.locator("#log .turn").count() > 2 and page.locator("#log div").count() > 20
    assert done["clicks_on_board"] > 5 and done["keys"] > 0, done
    assert not errors, errors
    page.close()


def test_a_phone_sized_window_plays_too(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(site)
    page.select_option("#form-play select[name=vs]", "random")
    page.click("#start-play")
    _wait_state(page, 0)
    assert _fits(page), "the page is wider than a phone's screen"
    assert page.locator("#decision .title").inner_text() == "Who goes first?"  # seed 0: A won the roll
    n = _states(page)
    page.keyboard.press("Enter")  # confirm: yes, go first
    _wait_state(page, n)
    assert "A goes first" in page.locator("#log").inner_text()
    for _ in range(6):  # a few moves, tapping the first choice
        if page.locator("#over").is_visible():
            break
        n = _states(page)
        target = page.locator("#table .can")
        (target if target.count() else page.locator("#decision > .btns button")).first.click()
        if page.locator("#menu").is_visible():
            page.locator("#menu button").first.click()
        _wait_state(page, n)
        assert _fits(page)
    page.close()


def test_a_kept_game_replayed_step_by_step(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(site)
    page.click("button[data-tab=replay]")
    page.wait_for_function("() => document.querySelector('#records').options.length > 0 && "
                           "document.querySelector('#records').value !== ''", timeout=TIMEOUT_MS)
    page.select_option("#form-replay select[name=side]", "A")
    page.click("#form-replay button[type=submit]")
    _wait_state(page, 0)
    where = page.locator("#where")
    assert "action 0/" in where.inner_text()
    for k in range(1, 6):
        n = _states(page)
        page.click("#fwd")
        _wait_state(page, n)
        assert f"action {k}/" in where.inner_text()
    n = _states(page)
    page.click("#back")
    _wait_state(page, n)
    assert "action 4/" in where.inner_text()
    n = _states(page)
    page.keyboard.press("ArrowRight")
    _wait_state(page, n)
    assert "action 5/" in where.inner_text()
    n = _states(page)
    page.click("#nextturn")
    _wait_state(page, n)
    assert "Turn" in where.inner_text()
    n = _states(page)
    page.select_option("#controls select", "spectator")
    _wait_state(page, n)
    assert page.locator("#hand").inner_text().startswith("A's hand:")
    n = _states(page)
    page.click("#last")
    _wait_state(page, n)
    assert "Game over" in page.locator("#over").inner_text()
    page.close()


def test_two_agents_watched_with_pause_and_step(browser: Browser, site: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(site)
    page.click("button[data-tab=watch]")
    page.select_option("#form-watch select[name=a]", "random")
    page.select_option("#form-watch select[name=b]", "random")
    page.click("#form-watch button[type=submit]")
    _wait_state(page, 0)
    page.click("#pause")
    page.wait_for_function("() => document.querySelector('#pause').textContent === 'Resume'", timeout=TIMEOUT_MS)
    n = _states(page)
    page.click("#step")
    _wait_state(page, n)
    page.click("#pause")  # resume
    page.wait_for_function("() => document.querySelector('#pause').textContent === 'Pause'", timeout=TIMEOUT_MS)
    page.close()


def test_a_report_opens_from_its_tab(browser: Browser, site: str) -> None:
    page = browser.new_page()
    page.goto(site)
    page.click("button[data-tab=reports]")
    link = page.locator("#reports a")
    assert link.inner_text() == "report.html"
    with page.expect_popup() as popup:
        link.click()
    assert popup.value.locator("h1").inner_text() == "Balance report"
    page.close()
