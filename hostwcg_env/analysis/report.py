"""Writing a study's tables: CSV always, Parquet when pyarrow is installed, PNG plots when
matplotlib is installed (Agg backend), and one self-contained HTML report (tables and the
plots embedded as base64 PNGs)."""

from __future__ import annotations

import base64
import csv
import functools
import html
import math
import re
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NotRequired, Protocol, TypedDict, TypeVar, overload

from .stats import CONDITION_TEXT, Cell, Row, Tables, num, text

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .records import RuleValue

T = TypeVar("T")
AxesGrid = Any  # matplotlib's Figure.subplots: one Axes or an array of them, typed Any by matplotlib


class _Figures(Protocol):
    """What ``_plt`` gives: new figures on an Agg canvas."""

    def subplots(self, ncols: int = 1, figsize: tuple[float, float] = (7, 4)) -> tuple[Figure, AxesGrid]: ...


class StudyMeta(TypedDict, total=False):
    """What a balance report says of its study (``BalanceResult.meta``)."""

    study: str  # Study.describe()
    games: int
    expected_games: int
    new_games: int
    seconds: float
    games_per_second: float | None
    max_width: float


class CompareMeta(TypedDict):
    """What a comparison's report says of it (``CompareResult.meta``)."""

    a: str  # configuration A's Study.describe()
    b: str
    changed: dict[str, RuleValue]  # the rule flags B sets differently
    pairs: int
    decision: str
    seconds: float
    max_width: float


class _Plan(Protocol):
    @property
    def metric(self) -> str: ...


class Comparison(Protocol):
    """What ``write_compare`` reads of a comparison (``compare.CompareResult``)."""

    @property
    def diffs(self) -> list[Row]: ...

    @property
    def looks(self) -> list[Row]: ...

    @property
    def decision(self) -> str: ...

    @property
    def plan(self) -> _Plan | None: ...

    def meta(self) -> CompareMeta: ...


class Written(TypedDict):
    """What a report writer wrote: its files, notes on what it left out, the HTML page."""

    files: list[Path]
    notes: list[str]
    report: NotRequired[Path]

TABLE_TEXT = {
    "matchups": "Each deck against each other deck: the row deck's win rate (draws count half), 95% Wilson interval.",
    "matrix": "The matchup matrix: the row deck's win rate against the column deck.",
    "first_player": "How often the player who went first won: in all games, and in the games of each deck "
                    "(interval clustered by seed; design_effect: how much the seeds widened it).",
    "seats": "Each seat's agent: its win rate (seats are swapped between decks on paired seeds).",
    "decks": "Each deck against the field; going first and going second.",
    "hosts": "Each Host over the decks it leads: win rate, going first/second, how its games ended.",
    "cards": "Per deck and card: the deck's win rate in games where the card was drawn / in the opening "
             "hand / drawn later / played / never drawn, and delta = that rate - the deck's baseline.",
    "lengths": "Game length (turns) and decisions per game.",
    "reasons": "How games ended.",
    "games": "One row per game.",
    "metagame": "The deck-choice game (both players pick a deck; the payoff is the matchup matrix minus 1/2): "
                "<b>nash share</b> is each deck's weight in the Nash equilibrium mix, with a 95% interval and the "
                "share of resamples that play it, from resampling each pair's games; <b>never</b>: not played "
                "at the equilibrium (<b>never robust</b>: nor in 95% of the resamples); <b>nash avg delta</b>: Nash "
                "averaging, the deck's expected result against the equilibrium mix minus 50% (0 for the decks it "
                "plays, negative for the rest), a ranking that non-transitive matchups and duplicated decks do not "
                "distort.",
}


# ============================================================================ deck names


@overload
def deck_label(value: str) -> str: ...


@overload
def deck_label(value: T) -> T: ...


def deck_label(value: object) -> object:
    """What a report prints for a deck: a shipped deck's short name for its id wherever it
    appears (``karsh_ember_tide`` -> ``karsh``, ``brae_deep_roots vs karsh_ember_tide`` ->
    ``brae vs karsh``; ``hostwcg_env.cards.short_name``); any other value as it is. The CSV and
    Parquet tables keep the ids."""
    if not isinstance(value, str):
        return value
    pattern, short = _deck_ids()
    return pattern.sub(lambda m: short[m.group(0)], value) if short else value


@functools.cache
def _deck_ids() -> tuple[re.Pattern[str], dict[str, str]]:
    from hostwcg_env.cards.decks import deck_files, short_name

    short = {i: short_name(i) for i in deck_files(include_test=False)}
    words = "|".join(sorted(map(re.escape, short), key=len, reverse=True)) or "(?!)"
    return re.compile(rf"(?<![\w.-])(?:{words})(?![\w.-])"), short


DECK_COLUMNS = ("deck", "opponent", "scope", "decks", "deck_a", "deck_b", "winner_deck")


def _labelled(rows: Sequence[Row]) -> list[Row]:
    return [{k: (deck_label(v) if k in DECK_COLUMNS else v) for k, v in r.items()} for r in rows]


# ============================================================================ tables


def columns(rows: Sequence[Row]) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        for k in r:
            cols.setdefault(k, None)
    return list(cols)


def write_csv(rows: Sequence[Row], path: Path) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=columns(rows) or ["empty"])
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return path


def to_frames(tables: Tables) -> dict[str, pd.DataFrame]:
    """The tables as pandas DataFrames (pip install 'hostwcg[analysis]')."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError("pandas is needed for DataFrames: pip install 'hostwcg[analysis]'") from e
    out = {}
    for name, rows in tables.items():
        df = pd.DataFrame(rows, columns=columns(rows) or None)
        if name == "matrix" and len(df):
            df = df.set_index("deck")
        out[name] = df
    return out


def parquet_available() -> str | None:
    """None when Parquet can be written, else the reason it cannot."""
    try:
        import pandas  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError as e:
        return f"Parquet files not written: {e.name} is not installed (pip install 'hostwcg[analysis]')"
    return None


def write_tables(tables: Tables, folder: Path, prefix: str = "") -> Written:
    folder.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    for name, rows in tables.items():
        files.append(write_csv(rows, folder / f"{prefix}{name}.csv"))
    note = parquet_available()
    if note is None:
        import pandas as pd

        for name, rows in tables.items():
            df = pd.DataFrame(rows, columns=columns(rows) or None)
            df.to_parquet(folder / f"{prefix}{name}.parquet", index=False)
            files.append(folder / f"{prefix}{name}.parquet")
    return {"files": files, "notes": [note] if note else []}


# ============================================================================ plots


def _plt() -> _Figures | None:
    """matplotlib's Figure class, or None when matplotlib is not installed. Figures are drawn
    with the object API on an Agg canvas: pyplot's global backend (a notebook's inline one) is
    never touched."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        return None

    class _Figs:
        @staticmethod
        def subplots(ncols: int = 1, figsize: tuple[float, float] = (7, 4)) -> tuple[Figure, AxesGrid]:
            fig = Figure(figsize=figsize)
            FigureCanvasAgg(fig)
            return fig, fig.subplots(1, ncols)

    return _Figs


def matplotlib_note() -> str | None:
    return None if _plt() is not None else \
        "plots not drawn: matplotlib is not installed (pip install 'hostwcg[analysis]')"


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png")
    return path


def plot_matrix(tables: Tables, path: Path) -> Path | None:
    plt = _plt()
    rows = tables["matrix"]
    if plt is None or not rows:
        return None
    import numpy as np

    names = [text(r["deck"]) for r in rows]
    m = np.array([[np.nan if r[c] is None else num(r[c]) for c in names] for r in rows], dtype=float)
    ci = {(r["deck"], r["opponent"]): r for r in tables["matchups"]}
    n = len(names)
    fig, ax = plt.subplots(figsize=(1.1 * n + 3, 0.8 * n + 2))
    im = ax.imshow(m, cmap="RdBu", vmin=0.2, vmax=0.8)
    ax.set_xticks(range(n), [deck_label(x) for x in names], rotation=45, ha="right")
    ax.set_yticks(range(n), [deck_label(x) for x in names])
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            r = ci.get((a, b))
            if r is None:
                continue
            txt = f"{100 * num(r['win_rate']):.0f}\n[{100 * num(r['ci_low']):.0f}-{100 * num(r['ci_high']):.0f}]"
            ax.text(j, i, txt + ("*" if r["too_wide"] else ""), ha="center", va="center", fontsize=7,
                    color="white" if abs(num(r["win_rate"]) - 0.5) > 0.17 else "black")
    ax.set_xlabel("opponent")
    ax.set_ylabel("deck")
    ax.set_title("Row deck's win rate % [95% CI]  (* interval too wide to call)")
    fig.colorbar(im, ax=ax, fraction=0.04)
    return _save(fig, path)


def _forest(ax: Axes, labels: list[str], est: list[float], lo: list[float], hi: list[float],
            wide: list[bool], ref: float) -> None:
    ys = list(range(len(labels)))[::-1]
    for y, e, a, b, w in zip(ys, est, lo, hi, wide, strict=True):
        ax.errorbar([e], [y], xerr=[[e - a], [b - e]], fmt="o", color="#999" if w else "#1f4e9c",
                    capsize=3, ms=4)
    ax.axvline(ref, color="#c33", lw=1, ls="--")
    ax.set_yticks(ys, labels, fontsize=8)


def plot_rates(rows: list[Row], label: str, path: Path, title: str, prefix: str = "") -> Path | None:
    plt = _plt()
    rows = [r for r in rows if r.get(prefix + "win_rate") is not None]
    if plt is None or not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) + 1.5))
    _forest(ax, [str(deck_label(r[label])) for r in rows], [num(r[prefix + "win_rate"]) for r in rows],
            [num(r[prefix + "ci_low"]) for r in rows], [num(r[prefix + "ci_high"]) for r in rows],
            [bool(r[prefix + "too_wide"]) for r in rows], 0.5)
    ax.set_xlim(0, 1)
    ax.set_title(title, fontsize=10)
    return _save(fig, path)


def plot_lengths(tables: Tables, path: Path) -> Path | None:
    plt = _plt()
    g = tables["games"]
    if plt is None or not g:
        return None
    fig, axes = plt.subplots(2, figsize=(10, 3.5))
    for ax, metric in zip(axes, ("turns", "decisions"), strict=True):
        xs = [r[metric] for r in g]
        ax.hist(xs, bins=min(30, max(5, len(set(xs)))), color="#1f4e9c", alpha=0.8)
        ax.set_title(f"{metric} per game (n={len(xs)})", fontsize=10)
        ax.set_xlabel(metric)
    return _save(fig, path)


def plot_cards(tables: Tables, path: Path, condition: str = "drawn", top: int = 12,
               min_games: int = 5) -> Path | None:
    plt = _plt()
    rows = [r for r in tables["cards"] if r["condition"] == condition and r["delta"] is not None
            and num(r["games"]) >= min_games and num(r["share"]) < 1]
    if plt is None or not rows:
        return None
    rows.sort(key=lambda r: -num(r["delta"]))
    pick = rows if len(rows) <= 2 * top else rows[:top] + rows[-top:]
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(pick) + 1.5))
    _forest(ax, [f"{deck_label(r['deck'])}: {r['card']}" for r in pick], [num(r["delta"]) for r in pick],
            [num(r["delta_low"]) for r in pick], [num(r["delta_high"]) for r in pick],
            [bool(r["too_wide"]) for r in pick], 0.0)
    ax.set_title(f"Card win rate when {condition} minus the deck's baseline (95% CI; grey: too wide)",
                 fontsize=9)
    return _save(fig, path)


def draw_plots(tables: Tables, folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = [
        plot_matrix(tables, folder / "matchups.png"),
        plot_rates(tables["first_player"], "scope", folder / "first_player.png",
                   "First player's win rate (95% CI)"),
        plot_rates(tables["decks"], "deck", folder / "decks.png", "Deck win rate against the field (95% CI)"),
        plot_rates(tables["hosts"], "host", folder / "hosts.png", "Host win rate (95% CI)"),
        plot_lengths(tables, folder / "lengths.png"),
        plot_cards(tables, folder / "cards_drawn.png", "drawn"),
        plot_cards(tables, folder / "cards_played.png", "played"),
    ]
    return [p for p in out if p is not None]


# ============================================================================ HTML


CSS = """
body{font-family:system-ui,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1400px;\
box-sizing:border-box}
.tw{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-size:12px;margin:8px 0 18px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap}
th{background:#eef2f8;position:sticky;top:0;white-space:normal;vertical-align:bottom;max-width:9em}
table.sortable th{cursor:pointer}
table.sortable th[aria-sort=ascending]::after{content:" \\25B2"}
table.sortable th[aria-sort=descending]::after{content:" \\25BC"}
td.l,th.l{text-align:left}
td.t{white-space:normal;min-width:8em;text-align:left}
tr.wide td,td.wide{color:#888;font-style:italic}
td.mwide{color:#333;font-style:italic}
.note{color:#555;font-size:13px}
.warn{color:#a40;font-weight:bold;font-size:13px}
input.filter{font-size:13px;padding:3px 6px;width:24em;margin:4px 0}
img{max-width:100%;border:1px solid #ddd;margin:6px 0}
details{margin:8px 0}
"""

# Sorting (click a header; numbers by the value in data-v or the cell's first number) and
# filtering (every word typed must appear in the row), with no library: the report opens offline.
SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    th.addEventListener('click', function () {
      var up = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      function key(row) {
        var cell = row.cells[col];
        if (!cell) return [2, ''];
        var v = cell.getAttribute('data-v');
        if (v === null) {
          var m = cell.textContent.match(/^\\s*([-+]?\\d+(?:\\.\\d+)?)/);
          v = m ? m[1] : null;
        }
        if (v !== null && v !== '' && !isNaN(parseFloat(v))) return [0, parseFloat(v)];
        var t = cell.textContent.trim().toLowerCase();
        return [t ? 1 : 2, t];
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x[0] !== y[0]) return x[0] - y[0];
        if (x[1] < y[1]) return up ? -1 : 1;
        if (x[1] > y[1]) return up ? 1 : -1;
        return 0;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
document.querySelectorAll('input.filter').forEach(function (input) {
  var table = document.getElementById(input.getAttribute('data-table'));
  var count = document.getElementById(input.getAttribute('data-count'));
  input.addEventListener('input', function () {
    var words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var text = row.textContent.toLowerCase();
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.style.display = ok ? '' : 'none';
      if (ok) shown += 1;
    });
    if (count) count.textContent = shown + ' of ' + table.tBodies[0].rows.length + ' rows';
  });
});
"""


def fmt(v: object, col: str = "") -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, float) and col.endswith("wins"):
        return f"{v:g}"  # draws count half
    if isinstance(v, float):
        rate_like = any(k in col for k in ("rate", "ci_", "share", "baseline", "delta", "iwd", "diff", "value"))
        if rate_like and -1.0001 <= v <= 1.0001 and "turn" not in col and "decision" not in col:
            return f"{100 * v:.1f}%"
        return f"{v:.2f}" if abs(v) < 1000 else f"{v:.0f}"
    return html.escape(str(v))


def _ci_groups(cols: Sequence[str]) -> dict[str, tuple[str, str, str, str]]:
    """Estimate columns shown with their interval in one cell: estimate -> (estimate, low, high,
    too-wide flag). ``win_rate``/``mean``/``diff`` with ``ci_low``/``ci_high`` of the same prefix
    (``first_win_rate``, ``first_ci_low``...), and ``delta`` with ``delta_low``/``delta_high``."""
    have = set(cols)
    out = {}
    for c in cols:
        for stem in ("win_rate", "mean", "diff", "value"):
            if c.endswith(stem):
                pre = c[: -len(stem)]
                if {pre + "ci_low", pre + "ci_high"} <= have:
                    out[c] = (c, pre + "ci_low", pre + "ci_high", pre + "too_wide")
                    break
        else:
            if {c + "_low", c + "_high"} <= have:
                out[c] = (c, c + "_low", c + "_high", "")
    return out


def _header(col: str, merged: bool) -> str:
    text = col.replace("_", " ")
    return f"{text} [95% CI]" if merged else text


def html_table(rows: Sequence[Row], cols: Sequence[str] | None = None, max_rows: int | None = None,
               flag: str = "too_wide", table_id: str = "") -> str:
    """A table of ``rows`` that fits the page: deck ids as short names, each estimate with its
    95% interval in one cell (grey when too wide to call), underscores as spaces in the
    headers so that they wrap, sortable by a click on a header; wider than the window, it
    scrolls inside its own box."""
    if not rows:
        return "<p class='note'>(no rows)</p>"
    cols = list(cols or columns(rows))
    groups = _ci_groups(cols)
    hidden = {x for g in groups.values() for x in g[1:] if x} | {
        c for c in cols if c.endswith("ci_width")}
    shown_cols = [c for c in cols if c not in hidden or c == flag and not any(g[3] == flag for g in groups.values())]
    ident = f" id='{html.escape(table_id)}'" if table_id else ""
    out = [f"<div class='tw'><table class='sortable'{ident}><thead><tr>"
           + "".join(f"<th class='l'>{html.escape(_header(c, c in groups))}</th>" for c in shown_cols)
           + "</tr></thead><tbody>"]
    shown = rows if max_rows is None else rows[:max_rows]
    for r in _labelled(shown):
        cls = " class='wide'" if r.get(flag) else ""
        cells = []
        for c in shown_cols:
            v = r.get(c)
            if c in groups:
                cells.append(_ci_cell(r, *groups[c]))
                continue
            left = isinstance(v, str)
            klass = (" class='t'" if len(str(v)) > 24 else " class=l") if left else ""
            cells.append(f"<td{klass}>{fmt(v, c)}</td>")
        out.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    if max_rows is not None and len(rows) > max_rows:
        out.append(f"<p class='note'>{len(rows) - max_rows} more rows in the CSV file.</p>")
    return "".join(out)


def _ci_cell(r: Row, est: str, lo: str, hi: str, wide: str) -> str:
    v = r.get(est)
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "<td></td>"
    a, b = fmt(r.get(lo), est).rstrip("%"), fmt(r.get(hi), est).rstrip("%")
    interval = f" <small>[{a}, {b}]</small>" if a or b else ""
    cls = " class='wide'" if wide and r.get(wide) else ""
    return f"<td{cls} data-v='{v}'>{fmt(v, est)}{interval}</td>"


def matrix_html(tables: Tables) -> str:
    rows = tables["matrix"]
    if not rows:
        return ""
    names = [text(r["deck"]) for r in rows]
    ci = {(r["deck"], r["opponent"]): r for r in tables["matchups"]}
    out = ["<div class='tw'><table><thead><tr><th class='l'>deck \\ opponent</th>"
           + "".join(f"<th>{html.escape(deck_label(n))}</th>" for n in names) + "</tr></thead><tbody>"]
    for a in names:
        cells = [f"<td class='l'><b>{html.escape(deck_label(a))}</b></td>"]
        for b in names:
            r = ci.get((a, b))
            if r is None:
                cells.append("<td></td>")
                continue
            p = num(r["win_rate"])
            hue = int(255 - 125 * min(1.0, abs(p - 0.5) * 3.5))  # pastel: text stays readable
            bg = f"rgb(255,{hue},{hue})" if p < 0.5 else f"rgb({hue},{hue},255)"
            cls = "mwide" if r["too_wide"] else ""
            cells.append(f"<td class='{cls}' style='background:{bg}' title='n={r['games']}'>"
                         f"{100 * p:.0f}% <small>[{100 * num(r['ci_low']):.0f}-{100 * num(r['ci_high']):.0f}]"
                         "</small></td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def cards_pivot(rows: Sequence[Row], conditions: Sequence[str] = ("drawn", "opening", "drawn_later", "played")
                ) -> str:
    """One row per (deck, card): per condition 'rate (n) delta [lo, hi]'; grey when too wide.
    Sorted by a click on a header (a condition sorts by its delta), filtered by the words typed
    in the box above it (deck, card, anything in the row)."""
    if not rows:
        return "<p class='note'>(no rows)</p>"
    by: dict[tuple[str, str], dict[str, Row]] = {}  # a row per condition
    copies: dict[tuple[str, str], Cell] = {}
    for r in rows:
        at = (text(r["deck"]), text(r["card"]))
        copies.setdefault(at, r["copies"])
        by.setdefault(at, {})[text(r["condition"])] = r
    head = "".join(f"<th>{c.replace('_', ' ')}</th>" for c in conditions)
    out = ["<p><input class='filter' type='search' data-table='cards-table' data-count='cards-count' "
           "placeholder='filter: a deck, a card, any word in the row' aria-label='filter the cards'> "
           f"<span class='note' id='cards-count'>{len(by)} rows</span></p>",
           "<div class='tw'><table class='sortable' id='cards-table'><thead><tr><th class='l'>deck</th>"
           f"<th class='l'>card</th><th>copies</th>{head}</tr></thead><tbody>"]
    for (deck, card), d in by.items():
        cells = [f"<td class='l'>{html.escape(deck_label(deck))}</td><td class='l'>{html.escape(card)}</td>"
                 f"<td>{copies[(deck, card)]}</td>"]
        for c in conditions:
            rc = d.get(c)
            if rc is None or not rc["games"]:
                cells.append("<td></td>")
                continue
            delta = "" if rc["delta"] is None else (
                f" &Delta;{100 * num(rc['delta']):+.1f} [{100 * num(rc['delta_low']):+.1f}, "
                f"{100 * num(rc['delta_high']):+.1f}]")
            cls = " class='wide'" if rc["too_wide"] else ""
            key = rc["delta"] if rc["delta"] is not None else rc["win_rate"]
            cells.append(f"<td{cls} data-v='{key}'>{100 * num(rc['win_rate']):.0f}% (n={rc['games']}){delta}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def img_tag(path: Path) -> str:
    data = base64.b64encode(Path(path).read_bytes()).decode()
    return f"<img alt='{html.escape(Path(path).stem)}' src='data:image/png;base64,{data}'>"


def page(title: str, body: list[str]) -> str:
    """A self-contained page: its style and script inline, nothing fetched (it opens offline)."""
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>" + "\n".join(body)
            + f"<script>{SCRIPT}</script></body></html>\n")


def html_report(tables: Tables, meta: StudyMeta, pngs: Sequence[Path], notes: Sequence[str],
                title: str = "Balance report") -> str:
    by = {Path(p).stem: p for p in pngs}

    def img(name: str) -> str:
        return img_tag(by[name]) if name in by else ""

    rate = meta.get("games_per_second")
    body = [
        "<p class='note'>" + html.escape(meta.get("study", "")) + "<br>"
        f"{meta.get('games', 0)} games analysed"
        + (f" (of {meta['expected_games']} scheduled)"
           if meta.get("expected_games") not in (None, meta.get("games")) else "")
        + (f"; {meta['new_games']} played in this run at {rate:.1f} games/s" if rate else "")
        + f"; generated {time.strftime('%Y-%m-%d %H:%M')}.<br>"
        f"Intervals are 95% (Wilson for rates; a rate over several deck pairs is clustered by seed, "
        "since every pair plays the same seeds). Rows in <i style='color:#888'>grey italics</i> have an interval "
        f"wider than {100 * meta.get('max_width', 0.2):.0f} points (means: {100 * meta.get('max_width', 0.2):.0f}% "
        "of the mean): too wide to call; play more games.</p>",
    ]
    body += [f"<p class='note'>{html.escape(n)}</p>" for n in notes if n]
    body += ["<h2>Matchups</h2>", f"<p class='note'>{TABLE_TEXT['matrix']}</p>", matrix_html(tables), img("matchups"),
             "<details><summary>matchup table</summary>", html_table(tables["matchups"]), "</details>"]
    flag = first_player_flag(tables)
    body += ["<h2>First player</h2>", f"<p class='note'>{TABLE_TEXT['first_player']}</p>",
             f"<p class='warn'>{html.escape(flag)}</p>" if flag else "",
             html_table(tables["first_player"]), img("first_player"),
             "<h3>Seats and agents</h3>", html_table(tables["seats"])]
    meta_rows = tables.get("metagame")
    if meta_rows:
        from .metagame import summary

        body += ["<h2>Metagame</h2>", f"<p class='note'>{TABLE_TEXT['metagame']}</p>",
                 "<p>" + html.escape(summary(meta_rows)).replace("\n", "<br>") + "</p>", html_table(meta_rows)]
    body += ["<h2>Decks</h2>", html_table(tables["decks"]), img("decks"),
             "<h2>Hosts</h2>", f"<p class='note'>{TABLE_TEXT['hosts']}</p>", html_table(tables["hosts"]), img("hosts")]
    body += ["<h2>Game length</h2>", html_table(tables["lengths"]), img("lengths"),
             "<h3>How games ended</h3>", html_table(tables["reasons"])]
    body += ["<h2>Cards</h2>", f"<p class='note'>{TABLE_TEXT['cards']} {CONDITION_TEXT_HTML}</p>",
             img("cards_drawn"), img("cards_played"), cards_pivot(tables["cards"])]
    return page(title, body)


CONDITION_TEXT_HTML = "Conditions: " + "; ".join(f"<b>{k}</b>: {v}" for k, v in CONDITION_TEXT.items()) + "."


def _plots(wanted: bool, notes: list[str], draw: Callable[[], Iterable[Path]]) -> list[Path]:
    """Draw the plots if asked and matplotlib is there; otherwise say why there are none."""
    if not wanted:
        return []
    note = matplotlib_note()
    if note:
        notes.append(note)
        return []
    return list(draw())


def write_all(tables: Tables, folder: str | Path, meta: StudyMeta, plots: bool = True,
              title: str = "Balance report") -> Written:
    """Every output of a study under ``folder``; returns the files and any notes."""
    folder = Path(folder)
    res = write_tables(tables, folder)
    notes = list(res["notes"])
    pngs = _plots(plots, notes, lambda: draw_plots(tables, folder / "plots"))
    report = folder / "report.html"
    report.write_text(html_report(tables, meta, pngs, notes, title=title), encoding="utf-8")
    return {"files": [*res["files"], *pngs, report], "notes": notes, "report": report}


FIRST_PLAYER_BAND = (0.45, 0.55)  # a fair first turn: docs/balance.md, "The first player"
HOUSE_RULES = ("first_turn_ap_cut", "second_player_extra_cards", "second_turn_extra_ap", "second_turn_draw")


def first_player_flag(tables: Tables) -> str | None:
    """A warning when the first player's win rate over all games lies outside 45-55%, naming
    the first-turn house rules (docs/rulings.md A56) that compensate; None inside the band."""
    rows = tables.get("first_player") or []
    fp = rows[0] if rows else None
    if not fp or not fp["games"]:
        return None
    lo, hi = FIRST_PLAYER_BAND
    rate = num(fp["win_rate"])
    if lo <= rate <= hi:
        return None
    side = "first" if rate > hi else "second"
    return (f"FIRST PLAYER: the first player wins {100 * rate:.1f}% [{100 * num(fp['ci_low']):.1f}, "
            f"{100 * num(fp['ci_high']):.1f}], outside {100 * lo:.0f}-{100 * hi:.0f}%: the {side} player is "
            f"favoured. The first-turn house rules (docs/rulings.md A56: {', '.join(HOUSE_RULES)}) "
            "compensate; measure one with: hostwcg balance compare --compare "
            + ("first_turn_ap_cut=2" if side == "first" else "FLAG=VALUE"))


def text_summary(tables: Tables, meta: StudyMeta, max_cards: int = 5) -> str:
    """A short plain-text summary for the terminal."""
    lines = [meta.get("study", ""), f"{meta.get('games', 0)} games"]
    fp = tables["first_player"][0] if tables["first_player"] else None
    if fp and fp["games"]:
        lines.append(f"first player wins {100 * num(fp['win_rate']):.1f}% [{100 * num(fp['ci_low']):.1f}, "
                     f"{100 * num(fp['ci_high']):.1f}]{'  (too wide to call)' if fp['too_wide'] else ''}")
    flag = first_player_flag(tables)
    if flag:
        lines.append(flag)
    for r in tables["lengths"]:
        lines.append(f"{r['metric']}: mean {r['mean']:.1f} [{r['ci_low']:.1f}, {r['ci_high']:.1f}], "
                     f"median {r['median']:.0f}, p10-p90 {r['p10']:.0f}-{r['p90']:.0f}")
    lines.append("")
    lines.append("deck win rates against the field:")
    for r in tables["decks"]:
        lines.append(f"  {deck_label(r['deck']):24} {100 * num(r['win_rate']):5.1f}% [{100 * num(r['ci_low']):.1f}, "
                     f"{100 * num(r['ci_high']):.1f}]  n={r['games']}{'  too wide' if r['too_wide'] else ''}")
    if tables.get("metagame"):
        from .metagame import summary

        lines += ["", summary(tables["metagame"])]
    names = ("matchups", "first_player", "decks", "hosts", "cards")
    wide = sum(1 for t in names for r in tables[t] if r.get("too_wide"))
    total = sum(len(tables[t]) for t in names)
    lines.append(f"\n{wide} of {total} results have a 95% interval too wide to call")
    return "\n".join(lines)


# ============================================================================ comparisons


def plot_compare(diffs: Sequence[Row], path: Path) -> Path | None:
    plt = _plt()
    rows = [r for r in diffs if r["table"] in ("game", "matchup", "deck") and r["stat"] not in ("turns", "decisions")
            and r["ci_low"] is not None and math.isfinite(num(r["ci_low"]))]
    if plt is None or not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(rows) + 1.5))
    _forest(ax, [f"{r['table']}: {r['scope']}"[:60] for r in rows], [num(r["diff"]) for r in rows],
            [num(r["ci_low"]) for r in rows], [num(r["ci_high"]) for r in rows],
            [bool(r["too_wide"]) for r in rows], 0.0)
    ax.set_title("B - A (paired by game, 95% CI; grey: too wide to call)", fontsize=10)
    return _save(fig, path)


def plot_looks(looks: Sequence[Row], path: Path, metric: str) -> Path | None:
    plt = _plt()
    if plt is None or not looks:
        return None
    fig, ax = plt.subplots(figsize=(7, 3.5))
    g = [r["games"] for r in looks]
    ax.plot(g, [r["z"] if math.isfinite(num(r["z"])) else 0 for r in looks], "o-", label="z (B - A)")
    ax.plot(g, [r["bound"] for r in looks], "r--", label="boundary")
    ax.plot(g, [-num(r["bound"]) for r in looks], "r--")
    ax.axhline(0, color="#888", lw=0.8)
    ax.set_xlabel("paired games")
    ax.set_ylabel("z")
    ax.set_title(f"Group-sequential test on {metric}", fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig, path)


def write_compare(res: Comparison, folder: Path, plots: bool = True) -> Written:
    folder = Path(folder)
    tw = write_tables({"compare": res.diffs, "compare_looks": res.looks}, folder)
    notes = list(tw["notes"])

    def draw() -> list[Path]:
        (folder / "plots").mkdir(parents=True, exist_ok=True)
        return [p for p in (plot_compare(res.diffs, folder / "plots" / "compare.png"),
                            plot_looks(res.looks, folder / "plots" / "compare_looks.png",
                                       res.plan.metric if res.plan else "")) if p is not None]

    pngs = _plots(plots, notes, draw)
    m = res.meta()
    changed = ", ".join(f"{k}={v}" for k, v in m["changed"].items()) or "(nothing)"
    body = [f"<p class='note'>A: {html.escape(m['a'])}<br>B: the same with {html.escape(changed)}<br>"
            f"{m['pairs']} paired games (the same decks, seats, seeds and agent seeds in both); B - A is "
            "the mean paired difference with a t interval clustered by seed (its seeds and design effect in "
            "compare.csv); card rows compare independent proportions "
            "(Newcombe). <b>significant</b>: the 95% interval excludes 0 (not adjusted for the number "
            "of statistics or for stopping early). Grey italics: too wide to call.</p>"]
    body += [f"<p class='note'>{html.escape(n)}</p>" for n in notes if n]
    if res.decision:
        body.append(f"<h2>Decision</h2><p><b>{html.escape(res.decision)}</b></p>")
    if res.looks:
        body += ["<h3>Looks</h3>", html_table(res.looks, flag="crossed")]
    body += [img_tag(p) for p in pngs]
    for t, title in (("game", "Game-level"), ("matchup", "Matchups"), ("deck", "Decks"), ("host", "Hosts"),
                     ("card", "Cards")):
        rows = [r for r in res.diffs if r["table"] == t]
        if t == "card":
            rows = sorted(rows, key=lambda r: (not r["significant"], -abs(num(r["diff"]))))
        body += [f"<h2>{title}</h2>", html_table(rows, max_rows=300 if t == "card" else None)]
    body.append("<p class='note'>Full reports of each configuration: A/report.html and B/report.html.</p>")
    report = folder / "compare.html"
    report.write_text(page("Rule variant comparison", body), encoding="utf-8")
    return {"files": [*tw["files"], *pngs, report], "notes": notes, "report": report}
