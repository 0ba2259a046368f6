"""The balance report (``hostwcg balance``'s report.html): its tables fit a 1,400 px window, the
Cards table sorts and filters with a few lines of inline script (nothing fetched: it opens
offline), decks are called by their short names everywhere in it; and Bradley-Terry ratings
(``hostwcg evaluate``, ``hostwcg ladder``) have a real interval after a few one-sided games."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from hostwcg_env.analysis import Study, run_study
from hostwcg_env.analysis.ladder import LadderResult, bradley_terry, bradley_terry_intervals
from hostwcg_env.analysis.report import deck_label, plot_matrix

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome")) if p), None)


def study_report(tmp_path: Path, decks: list[str], games: int, plots: bool = False) -> str:
    out = tmp_path / "b"
    res = run_study(Study.make(decks=decks, games=games, agents="random"), out=out, workers=1, quiet=True)
    written = res.write_report(out, plots=plots)
    return Path(written["report"]).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def small_report(tmp_path_factory: pytest.TempPathFactory) -> str:
    return study_report(tmp_path_factory.mktemp("rep"), ["brae", "karsh", "lior"], 4)


# ------------------------------------------------------------------ short names


def test_decks_are_called_by_their_short_names_in_the_report(small_report: str) -> None:
    cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", small_report, re.S)
    text = " ".join(cells)
    for deck_id, short in (("brae_deep_roots", "brae"), ("karsh_ember_tide", "karsh"),
                           ("lior_borrowed_crowns", "lior")):
        assert deck_id not in text, f"{deck_id} printed in a table"
        assert re.search(rf"(?:<b>)?{short}(?:</b>)?", text)
    assert deck_label("brae_deep_roots vs karsh_ember_tide") == "brae vs karsh"
    assert deck_label("karsh_ember_tide: Squire") == "karsh: Squire"
    assert deck_label("my_deck") == "my_deck" and deck_label(3) == 3


def test_the_heatmap_uses_the_same_short_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ids = ["brae_deep_roots", "karsh_ember_tide"]
    tables: dict[str, Any] = {
        "matrix": [{"deck": a, **{b: (None if a == b else 0.5) for b in ids}} for a in ids],
        "matchups": [{"deck": a, "opponent": b, "win_rate": 0.5, "ci_low": 0.2, "ci_high": 0.8, "too_wide": True}
                     for a in ids for b in ids if a != b]}
    labels: list[str] = []
    real = plt.Axes.set_xticks

    def spy(self: Any, ticks: Any, names: Any = None, **kw: Any) -> Any:
        labels.extend(names or [])
        return real(self, ticks, names, **kw)

    monkeypatch.setattr(plt.Axes, "set_xticks", spy)
    assert plot_matrix(tables, tmp_path / "m.png") is not None
    assert labels == ["brae", "karsh"]


def test_csv_tables_keep_the_ids(tmp_path: Path) -> None:
    study_report(tmp_path, ["brae", "karsh"], 2)
    head = (tmp_path / "b" / "decks.csv").read_text().splitlines()
    assert any(line.startswith("brae_deep_roots,") for line in head)


# ------------------------------------------------------------------ fitting the window, offline


def test_every_table_scrolls_inside_its_own_box_and_nothing_is_fetched(small_report: str) -> None:
    assert small_report.count("<table") >= 8
    assert small_report.count("<table") == len(re.findall(r"<div class='tw'><table", small_report))
    assert re.search(r"\.tw\{overflow-x:auto;max-width:100%\}", small_report)
    assert "max-width:1400px" in small_report
    assert not re.search(r"(?:src|href)=['\"]?(?:https?:)?//", small_report), "the report fetches nothing"
    assert "<script>" in small_report and "<script src" not in small_report
    # an estimate and its interval share a cell: no ci_low / ci_width / too_wide columns
    heads = re.findall(r"<th[^>]*>(.*?)</th>", small_report)
    assert not [h for h in heads if h in ("ci low", "ci high", "ci width", "too wide", "first ci low")]
    assert "win rate [95% CI]" in heads


def _probe(html: str, script: str, width: int = 1400) -> dict[str, Any]:
    """Open ``html`` in headless chromium at ``width`` px, run ``script`` after load (it returns a
    JSON-able value) and give back what it returned."""
    assert CHROMIUM is not None
    probe = ("<script>window.addEventListener('load', function () { var out = (function () {"
             + script + "})(); document.body.setAttribute('data-probe', JSON.stringify(out)); });</script>")
    page = html.replace("</body>", probe + "</body>")
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "r.html"
        path.write_text(page, encoding="utf-8")
        run = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", f"--window-size={width},900",
                              "--virtual-time-budget=5000", "--dump-dom", path.as_uri()],
                             capture_output=True, text=True, timeout=180)
    m = re.search(r'data-probe="([^"]*)"', run.stdout)
    assert m, run.stderr[-2000:]
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium to lay the page out")
def test_the_whole_report_fits_a_1400px_window(tmp_path: Path) -> None:
    """Every preconstructed deck (the widest tables a study makes), plots included."""
    html = study_report(tmp_path, ["brae", "karsh", "lior", "mirela", "osric", "sable", "tamsin", "verena"], 2,
                        plots=True)
    got = _probe(html, "var t = []; document.querySelectorAll('table').forEach(function (x) {"
                       " t.push(x.getBoundingClientRect().width); });"
                       "return {page: document.documentElement.scrollWidth, tables: t};")
    assert got["page"] <= 1400, got
    assert max(got["tables"]) <= 1400 - 2 * 24, got  # inside the body's margins: nothing scrolls


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium to run the page's script")
def test_the_cards_table_sorts_and_filters_in_a_browser(small_report: str) -> None:
    card = re.search(r"<tbody><tr><td class='l'>[a-z]+</td><td class='l'>([^<]+)</td>",
                     small_report[small_report.index("id='cards-table'"):])
    assert card
    name = card.group(1)
    got = _probe(small_report, """
      var table = document.getElementById('cards-table');
      var rows = function () { return Array.prototype.filter.call(table.tBodies[0].rows,
        function (r) { return r.style.display !== 'none'; }); };
      var all = rows().length;
      var input = document.querySelector("input.filter[data-table='cards-table']");
      input.value = '""" + name.replace("'", "\\'") + """';
      input.dispatchEvent(new Event('input'));
      var filtered = rows().map(function (r) { return r.cells[1].textContent; });
      var count = document.getElementById('cards-count').textContent;
      input.value = '';
      input.dispatchEvent(new Event('input'));
      var th = table.tHead.rows[0].cells[3];  // 'drawn': sorted by delta
      var values = function () { return Array.prototype.map.call(table.tBodies[0].rows, function (r) {
        var v = r.cells[3].getAttribute('data-v'); return v === null ? null : parseFloat(v); }); };
      th.click();
      var up = values();
      th.click();
      var down = values();
      table.tHead.rows[0].cells[1].click();
      var names = Array.prototype.map.call(table.tBodies[0].rows, function (r) { return r.cells[1].textContent; });
      return {all: all, filtered: filtered, count: count, up: up, down: down, names: names,
              restored: rows().length};
    """)
    assert got["all"] > 10 and got["restored"] == got["all"]
    assert got["filtered"] and all(x == name for x in got["filtered"]) and len(got["filtered"]) < got["all"]
    assert got["count"] == f"{len(got['filtered'])} of {got['all']} rows"
    up = [v for v in got["up"] if v is not None]
    down = [v for v in got["down"] if v is not None]
    assert up == sorted(up) and down == sorted(down, reverse=True) and len(up) > 5
    assert got["names"] == sorted(got["names"], key=str.lower)


# ------------------------------------------------------------------ Bradley-Terry


def test_one_sided_games_give_a_finite_rating_and_a_real_interval() -> None:
    """A beats B in all of 4 games: a plain maximum-likelihood fit runs off to infinity and a
    bootstrap resamples the same one-sided games (a single point); the regularised fit gives a
    finite gap and an interval that is wide, as 4 games are few."""
    out = bradley_terry_intervals(["a", "b"], {("a", "b"): 4.0})
    (ra, la, ha), (rb, lb, hb) = out["a"], out["b"]
    assert ra > rb and 100 < ra - rb < 800
    assert ha - la > 300 and hb - lb > 300  # not a point
    assert la < ra < ha and lb < rb < hb
    assert abs((ra + rb) / 2 - 1500) < 1e-6
    res = LadderResult(["a", "b"], [{"agents": ["a", "b"], "winner": 0}, {"agents": ["b", "a"], "winner": 1}] * 2, 0.0)
    (r, lo, hi) = res.ratings()["a"]
    assert hi - lo > 300 and (r, lo, hi) == out["a"]
    # more one-sided games: a larger gap, known better, still finite
    ten = bradley_terry_intervals(["a", "b"], {("a", "b"): 40.0})
    assert ten["a"][0] - ten["b"][0] > ra - rb
    assert ten["a"][2] - ten["a"][1] < ha - la


def test_the_fit_barely_moves_with_many_games_and_its_interval_matches_the_binomial() -> None:
    """75 of 100: the gap is the log-odds (400 log10 3, about 191 Elo) give or take the one
    pseudo-game; the interval of the gap matches the binomial's standard error."""
    import math

    r = bradley_terry(["a", "b"], {("a", "b"): 75.0, ("b", "a"): 25.0})
    assert abs((r["a"] - r["b"]) - 400 * math.log10(75.5 / 25.5)) < 1e-6
    ci = bradley_terry_intervals(["a", "b"], {("a", "b"): 75.0, ("b", "a"): 25.0})
    se_gap = 400 / math.log(10) / math.sqrt(101 * (75.5 / 101) * (25.5 / 101))
    half = (ci["a"][2] - ci["a"][1]) / 2  # each rating carries half the gap's uncertainty
    assert abs(half - 1.959964 * se_gap / 2) < 1e-3


def test_three_agents_one_pair_unplayed_still_rated_through_the_third() -> None:
    wins = {("a", "b"): 6.0, ("b", "a"): 4.0, ("b", "c"): 7.0, ("c", "b"): 3.0}
    out = bradley_terry_intervals(["a", "b", "c"], wins)
    assert out["a"][0] > out["b"][0] > out["c"][0]
    # a and c never met: their gap is less certain than either's gap to b
    assert (out["a"][2] - out["a"][1]) > (out["b"][2] - out["b"][1])
