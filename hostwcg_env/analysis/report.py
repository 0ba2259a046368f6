"""Writing a study's tables: CSV always, Parquet when pyarrow is installed, PNG plots when
matplotlib is installed (Agg backend), and one self-contained HTML report (tables and the
plots embedded as base64 PNGs)."""

from __future__ import annotations

import base64
import csv
import html
import math
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .stats import CONDITION_TEXT

TABLE_TEXT = {
    "matchups": "Each deck against each other deck: the row deck's win rate (draws count half), 95% Wilson interval.",
    "matrix": "The matchup matrix: the row deck's win rate against the column deck.",
    "first_player": "How often the player who went first won: in all games, and in the games of each deck.",
    "seats": "Each seat's agent: its win rate (seats are swapped between decks on paired seeds).",
    "decks": "Each deck against the field; going first and going second.",
    "hosts": "Each Host over the decks it leads: win rate, going first/second, how its games ended.",
    "cards": "Per deck and card: the deck's win rate in games where the card was drawn / in the opening "
             "hand / drawn later / played / never drawn, and delta = that rate - the deck's baseline.",
    "lengths": "Game length (turns) and decisions per game.",
    "reasons": "How games ended.",
    "games": "One row per game.",
}


# ============================================================================ tables


def columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    cols: dict[str, None] = {}
    for r in rows:
        for k in r:
            cols.setdefault(k, None)
    return list(cols)


def write_csv(rows: Sequence[dict[str, Any]], path: Path) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=columns(rows) or ["empty"])
        w.writeheader()
        for r in rows:
            w.writerow({k: ("" if v is None else v) for k, v in r.items()})
    return path


def to_frames(tables: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
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


def write_tables(tables: dict[str, list[dict[str, Any]]], folder: Path, prefix: str = "") -> dict[str, Any]:
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


def _plt() -> Any:
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
        def subplots(ncols: int = 1, figsize: tuple[float, float] = (7, 4)) -> tuple[Any, Any]:
            fig = Figure(figsize=figsize)
            FigureCanvasAgg(fig)
            return fig, fig.subplots(1, ncols)

    return _Figs


def matplotlib_note() -> str | None:
    return None if _plt() is not None else \
        "plots not drawn: matplotlib is not installed (pip install 'hostwcg[analysis]')"


def _save(fig: Any, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100, format="png")
    return path


def plot_matrix(tables: dict[str, Any], path: Path) -> Path | None:
    plt = _plt()
    rows = tables["matrix"]
    if plt is None or not rows:
        return None
    import numpy as np

    names = [r["deck"] for r in rows]
    m = np.array([[np.nan if r[c] is None else r[c] for c in names] for r in rows], dtype=float)
    ci = {(r["deck"], r["opponent"]): r for r in tables["matchups"]}
    n = len(names)
    fig, ax = plt.subplots(figsize=(1.1 * n + 3, 0.8 * n + 2))
    im = ax.imshow(m, cmap="RdBu", vmin=0.2, vmax=0.8)
    ax.set_xticks(range(n), [x.split("_")[0] for x in names], rotation=45, ha="right")
    ax.set_yticks(range(n), [x.split("_")[0] for x in names])
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            r = ci.get((a, b))
            if r is None:
                continue
            txt = f"{100 * r['win_rate']:.0f}\n[{100 * r['ci_low']:.0f}-{100 * r['ci_high']:.0f}]"
            ax.text(j, i, txt + ("*" if r["too_wide"] else ""), ha="center", va="center", fontsize=7,
                    color="white" if abs(r["win_rate"] - 0.5) > 0.17 else "black")
    ax.set_xlabel("opponent")
    ax.set_ylabel("deck")
    ax.set_title("Row deck's win rate % [95% CI]  (* interval too wide to call)")
    fig.colorbar(im, ax=ax, fraction=0.04)
    return _save(fig, path)


def _forest(ax: Any, labels: list[str], est: list[float], lo: list[float], hi: list[float],
            wide: list[bool], ref: float) -> None:
    ys = list(range(len(labels)))[::-1]
    for y, e, a, b, w in zip(ys, est, lo, hi, wide, strict=True):
        ax.errorbar([e], [y], xerr=[[e - a], [b - e]], fmt="o", color="#999" if w else "#1f4e9c",
                    capsize=3, ms=4)
    ax.axvline(ref, color="#c33", lw=1, ls="--")
    ax.set_yticks(ys, labels, fontsize=8)


def plot_rates(rows: list[dict[str, Any]], label: str, path: Path, title: str, prefix: str = "") -> Path | None:
    plt = _plt()
    rows = [r for r in rows if r.get(prefix + "win_rate") is not None]
    if plt is None or not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(rows) + 1.5))
    _forest(ax, [str(r[label]) for r in rows], [r[prefix + "win_rate"] for r in rows],
            [r[prefix + "ci_low"] for r in rows], [r[prefix + "ci_high"] for r in rows],
            [r[prefix + "too_wide"] for r in rows], 0.5)
    ax.set_xlim(0, 1)
    ax.set_title(title, fontsize=10)
    return _save(fig, path)


def plot_lengths(tables: dict[str, Any], path: Path) -> Path | None:
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


def plot_cards(tables: dict[str, Any], path: Path, condition: str = "drawn", top: int = 12,
               min_games: int = 5) -> Path | None:
    plt = _plt()
    rows = [r for r in tables["cards"] if r["condition"] == condition and r["delta"] is not None
            and r["games"] >= min_games and r["share"] < 1]
    if plt is None or not rows:
        return None
    rows.sort(key=lambda r: -r["delta"])
    pick = rows if len(rows) <= 2 * top else rows[:top] + rows[-top:]
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(pick) + 1.5))
    _forest(ax, [f"{r['deck'].split('_')[0]}: {r['card']}" for r in pick], [r["delta"] for r in pick],
            [r["delta_low"] for r in pick], [r["delta_high"] for r in pick],
            [r["too_wide"] for r in pick], 0.0)
    ax.set_title(f"Card win rate when {condition} minus the deck's baseline (95% CI; grey: too wide)",
                 fontsize=9)
    return _save(fig, path)


def draw_plots(tables: dict[str, Any], folder: Path) -> list[Path]:
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
body{font-family:system-ui,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#222;max-width:1400px}
table{border-collapse:collapse;font-size:12px;margin:8px 0 18px}
th,td{border:1px solid #ccc;padding:3px 6px;text-align:right}
th{background:#eef2f8;position:sticky;top:0}
td.l,th.l{text-align:left}
tr.wide td{color:#888;font-style:italic}
td.wide{color:#888;font-style:italic}
td.mwide{color:#333;font-style:italic}
.note{color:#555;font-size:13px}
img{max-width:100%;border:1px solid #ddd;margin:6px 0}
details{margin:8px 0}
"""


def fmt(v: Any, col: str = "") -> str:
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


def html_table(rows: Sequence[dict[str, Any]], cols: Sequence[str] | None = None, max_rows: int | None = None,
               flag: str = "too_wide") -> str:
    if not rows:
        return "<p class='note'>(no rows)</p>"
    cols = list(cols or columns(rows))
    out = ["<table><thead><tr>" + "".join(f"<th class='l'>{html.escape(c)}</th>" for c in cols) + "</tr></thead><tbody>"]
    shown = rows if max_rows is None else rows[:max_rows]
    for r in shown:
        cls = " class='wide'" if r.get(flag) else ""
        cells = []
        for c in cols:
            v = r.get(c)
            left = isinstance(v, str)
            cells.append(f"<td{' class=l' if left else ''}>{fmt(v, c)}</td>")
        out.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    if max_rows is not None and len(rows) > max_rows:
        out.append(f"<p class='note'>{len(rows) - max_rows} more rows in the CSV file.</p>")
    return "".join(out)


def matrix_html(tables: dict[str, Any]) -> str:
    rows = tables["matrix"]
    if not rows:
        return ""
    names = [r["deck"] for r in rows]
    ci = {(r["deck"], r["opponent"]): r for r in tables["matchups"]}
    out = ["<table><thead><tr><th class='l'>deck \\ opponent</th>"
           + "".join(f"<th>{html.escape(n)}</th>" for n in names) + "</tr></thead><tbody>"]
    for a in names:
        cells = [f"<td class='l'><b>{html.escape(a)}</b></td>"]
        for b in names:
            r = ci.get((a, b))
            if r is None:
                cells.append("<td></td>")
                continue
            p = r["win_rate"]
            hue = int(255 - 125 * min(1.0, abs(p - 0.5) * 3.5))  # pastel: text stays readable
            bg = f"rgb(255,{hue},{hue})" if p < 0.5 else f"rgb({hue},{hue},255)"
            cls = "mwide" if r["too_wide"] else ""
            cells.append(f"<td class='{cls}' style='background:{bg}' title='n={r['games']}'>"
                         f"{100 * p:.0f}% <small>[{100 * r['ci_low']:.0f}-{100 * r['ci_high']:.0f}]</small></td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def cards_pivot(rows: Sequence[dict[str, Any]], conditions: Sequence[str] = ("drawn", "opening", "drawn_later", "played")
                ) -> str:
    """One row per (deck, card): per condition 'rate (n) delta [lo, hi]'; grey when too wide."""
    if not rows:
        return "<p class='note'>(no rows)</p>"
    by: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        by.setdefault((r["deck"], r["card"]), {"copies": r["copies"]})[r["condition"]] = r
    head = "".join(f"<th>{c}</th>" for c in conditions)
    out = [f"<table><thead><tr><th class='l'>deck</th><th class='l'>card</th><th>copies</th>{head}</tr></thead><tbody>"]
    for (deck, card), d in by.items():
        cells = [f"<td class='l'>{html.escape(deck)}</td><td class='l'>{html.escape(card)}</td><td>{d['copies']}</td>"]
        for c in conditions:
            rc = d.get(c)
            if rc is None or not rc["games"]:
                cells.append("<td></td>")
                continue
            delta = "" if rc["delta"] is None else (
                f" &Delta;{100 * rc['delta']:+.1f} [{100 * rc['delta_low']:+.1f}, {100 * rc['delta_high']:+.1f}]")
            cls = " class='wide'" if rc["too_wide"] else ""
            cells.append(f"<td{cls}>{100 * rc['win_rate']:.0f}% (n={rc['games']}){delta}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def img_tag(path: Path) -> str:
    data = base64.b64encode(Path(path).read_bytes()).decode()
    return f"<img alt='{html.escape(Path(path).stem)}' src='data:image/png;base64,{data}'>"


def page(title: str, body: list[str]) -> str:
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{CSS}</style></head><body><h1>{html.escape(title)}</h1>" + "\n".join(body) + "</body></html>\n")


def html_report(tables: dict[str, Any], meta: dict[str, Any], pngs: Sequence[Path], notes: Sequence[str],
                title: str = "Balance report") -> str:
    by = {Path(p).stem: p for p in pngs}

    def img(name: str) -> str:
        return img_tag(by[name]) if name in by else ""

    rate = meta.get("games_per_second")
    body = [
        "<p class='note'>" + html.escape(meta.get("study", "")) + "<br>"
        f"{meta.get('games', 0)} games analysed"
        + (f" (of {meta['expected_games']} scheduled)" if meta.get("expected_games") not in (None, meta.get("games")) else "")
        + (f"; {meta['new_games']} played in this run at {rate:.1f} games/s" if rate else "")
        + f"; generated {time.strftime('%Y-%m-%d %H:%M')}.<br>"
        f"Intervals are 95% (Wilson for rates). Rows in <i style='color:#888'>grey italics</i> have an interval "
        f"wider than {100 * meta.get('max_width', 0.2):.0f} points (means: {100 * meta.get('max_width', 0.2):.0f}% "
        "of the mean): too wide to call; play more games.</p>",
    ]
    body += [f"<p class='note'>{html.escape(n)}</p>" for n in notes if n]
    body += ["<h2>Matchups</h2>", f"<p class='note'>{TABLE_TEXT['matrix']}</p>", matrix_html(tables), img("matchups"),
             "<details><summary>matchup table</summary>", html_table(tables["matchups"]), "</details>"]
    body += ["<h2>First player</h2>", f"<p class='note'>{TABLE_TEXT['first_player']}</p>",
             html_table(tables["first_player"]), img("first_player"),
             "<h3>Seats and agents</h3>", html_table(tables["seats"])]
    body += ["<h2>Decks</h2>", html_table(tables["decks"]), img("decks"),
             "<h2>Hosts</h2>", f"<p class='note'>{TABLE_TEXT['hosts']}</p>", html_table(tables["hosts"]), img("hosts")]
    body += ["<h2>Game length</h2>", html_table(tables["lengths"]), img("lengths"),
             "<h3>How games ended</h3>", html_table(tables["reasons"])]
    body += ["<h2>Cards</h2>", f"<p class='note'>{TABLE_TEXT['cards']} {CONDITION_TEXT_HTML}</p>",
             img("cards_drawn"), img("cards_played"), cards_pivot(tables["cards"])]
    return page(title, body)


CONDITION_TEXT_HTML = "Conditions: " + "; ".join(f"<b>{k}</b>: {v}" for k, v in CONDITION_TEXT.items()) + "."


def _plots(wanted: bool, notes: list[str], draw: Any) -> list[Path]:
    """Draw the plots if asked and matplotlib is there; otherwise say why there are none."""
    if not wanted:
        return []
    note = matplotlib_note()
    if note:
        notes.append(note)
        return []
    return list(draw())


def write_all(tables: dict[str, Any], folder: str | Path, meta: dict[str, Any], plots: bool = True,
              title: str = "Balance report") -> dict[str, Any]:
    """Every output of a study under ``folder``; returns the files and any notes."""
    folder = Path(folder)
    res = write_tables(tables, folder)
    notes = list(res["notes"])
    pngs = _plots(plots, notes, lambda: draw_plots(tables, folder / "plots"))
    report = folder / "report.html"
    report.write_text(html_report(tables, meta, pngs, notes, title=title), encoding="utf-8")
    return {"files": [*res["files"], *pngs, report], "notes": notes, "report": report}


def text_summary(tables: dict[str, Any], meta: dict[str, Any], max_cards: int = 5) -> str:
    """A short plain-text summary for the terminal."""
    lines = [meta.get("study", ""), f"{meta.get('games', 0)} games"]
    fp = tables["first_player"][0] if tables["first_player"] else None
    if fp and fp["games"]:
        lines.append(f"first player wins {100 * fp['win_rate']:.1f}% [{100 * fp['ci_low']:.1f}, "
                     f"{100 * fp['ci_high']:.1f}]{'  (too wide to call)' if fp['too_wide'] else ''}")
    for r in tables["lengths"]:
        lines.append(f"{r['metric']}: mean {r['mean']:.1f} [{r['ci_low']:.1f}, {r['ci_high']:.1f}], "
                     f"median {r['median']:.0f}, p10-p90 {r['p10']:.0f}-{r['p90']:.0f}")
    lines.append("")
    lines.append("deck win rates against the field:")
    for r in tables["decks"]:
        lines.append(f"  {r['deck']:24} {100 * r['win_rate']:5.1f}% [{100 * r['ci_low']:.1f}, "
                     f"{100 * r['ci_high']:.1f}]  n={r['games']}{'  too wide' if r['too_wide'] else ''}")
    wide = sum(1 for t in ("matchups", "first_player", "decks", "hosts", "cards") for r in tables[t] if r.get("too_wide"))
    total = sum(len(tables[t]) for t in ("matchups", "first_player", "decks", "hosts", "cards"))
    lines.append(f"\n{wide} of {total} results have a 95% interval too wide to call")
    return "\n".join(lines)


# ============================================================================ comparisons


def plot_compare(diffs: Sequence[dict[str, Any]], path: Path) -> Path | None:
    plt = _plt()
    rows = [r for r in diffs if r["table"] in ("game", "matchup", "deck") and r["stat"] not in ("turns", "decisions")
            and r["ci_low"] is not None and math.isfinite(r["ci_low"])]
    if plt is None or not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(rows) + 1.5))
    _forest(ax, [f"{r['table']}: {r['scope']}"[:60] for r in rows], [r["diff"] for r in rows],
            [r["ci_low"] for r in rows], [r["ci_high"] for r in rows], [r["too_wide"] for r in rows], 0.0)
    ax.set_title("B - A (paired by game, 95% CI; grey: too wide to call)", fontsize=10)
    return _save(fig, path)


def plot_looks(looks: Sequence[dict[str, Any]], path: Path, metric: str) -> Path | None:
    plt = _plt()
    if plt is None or not looks:
        return None
    fig, ax = plt.subplots(figsize=(7, 3.5))
    g = [r["games"] for r in looks]
    ax.plot(g, [r["z"] if math.isfinite(r["z"]) else 0 for r in looks], "o-", label="z (B - A)")
    ax.plot(g, [r["bound"] for r in looks], "r--", label="boundary")
    ax.plot(g, [-r["bound"] for r in looks], "r--")
    ax.axhline(0, color="#888", lw=0.8)
    ax.set_xlabel("paired games")
    ax.set_ylabel("z")
    ax.set_title(f"Group-sequential test on {metric}", fontsize=10)
    ax.legend(fontsize=8)
    return _save(fig, path)


def write_compare(res: Any, folder: Path, plots: bool = True) -> dict[str, Any]:
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
            "the mean paired difference with a t interval; card rows compare independent proportions "
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
            rows = sorted(rows, key=lambda r: (not r["significant"], -abs(r["diff"])))
        body += [f"<h2>{title}</h2>", html_table(rows, max_rows=300 if t == "card" else None)]
    body.append("<p class='note'>Full reports of each configuration: A/report.html and B/report.html.</p>")
    report = folder / "compare.html"
    report.write_text(page("Rule variant comparison", body), encoding="utf-8")
    return {"files": [*tw["files"], *pngs, report], "notes": notes, "report": report}
