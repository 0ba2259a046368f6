"""The board as self-contained HTML and CSS (no script, nothing fetched): ``_repr_html_``.

Drawn from ``board_of`` (``model.py``) alone. The board carries its own colours (a light and a
dark palette, picked from the notebook's theme where the page says it, else from the
browser's preference), so it reads the same in light and dark notebooks.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .model import RESOURCE_NAMES, SIDES, Board, CardFace, Seat, Side, StackEntry, board_of
from .style import PALETTES, RES_COLORS

MAX_ACTIONS = 60  # legal actions listed before "+N more"
MAX_BACKS = 12  # card backs drawn for a hidden hand before "+N"

def _vars(palette: dict[str, str]) -> str:
    return ";".join(f"--{k}:{v}" for k, v in palette.items())


_CSS = """
.hwb{@LIGHT@;background:var(--bg);color:var(--fg);font:13px/1.3 system-ui,-apple-system,
"Segoe UI",Roboto,"DejaVu Sans",sans-serif;border:1px solid var(--line);border-radius:8px;
padding:8px;max-width:1240px;box-sizing:border-box}
@media (prefers-color-scheme:dark){.hwb{@DARK@}}
body[data-jp-theme-light=false] .hwb,body.vscode-dark .hwb,.theme-dark .hwb,
html[theme=dark] .hwb,.hwb.hwb-dark{@DARK@}
body[data-jp-theme-light=true] .hwb,body.vscode-light .hwb,.hwb.hwb-light{@LIGHT@}
.hwb *{box-sizing:border-box}
.hwb-head{display:flex;gap:12px;align-items:baseline;padding:2px 4px 6px;border-bottom:1px solid var(--line)}
.hwb-title{font-weight:700;letter-spacing:.06em}
.hwb-where{flex:1}
.hwb-seat{color:var(--muted);font-style:italic}
.hwb-dec{margin:6px 0;padding:5px 8px;border-radius:6px;background:var(--panel);border:1px solid var(--line)}
.hwb-dec.hwb-mine{background:var(--mine)}
.hwb-dec.hwb-over{background:var(--over);font-weight:700}
.hwb-acts{display:flex;flex-wrap:wrap;gap:3px;margin-top:4px}
.hwb-act{font:11px/1.2 ui-monospace,"DejaVu Sans Mono",monospace;background:var(--chip);
border:1px solid var(--line);border-radius:4px;padding:1px 4px}
.hwb-grid{display:grid;grid-template-columns:200px minmax(0,1fr) 210px;gap:8px}
.hwb-info{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:6px;
display:flex;flex-direction:column;gap:5px}
.hwb-player{font-weight:700;font-size:15px}
.hwb-pA{color:var(--a)}.hwb-pB{color:var(--b)}
.hwb-hostbox{border:2px solid var(--line);border-radius:6px;padding:4px 6px;background:var(--card)}
.hwb-hostname{font-weight:700}
.hwb-bar{height:7px;border-radius:4px;background:var(--chip);overflow:hidden;margin:3px 0}
.hwb-bar i{display:block;height:100%;background:var(--dmg)}
.hwb-kv{display:flex;justify-content:space-between;gap:6px}
.hwb-kv b{font-weight:600}
.hwb-muted{color:var(--muted)}
.hwb-list{font-size:11px;color:var(--muted);overflow-wrap:anywhere}
.hwb-field{display:flex;flex-direction:column;gap:4px;min-width:0}
.hwb-rowlabel{font-size:10px;text-transform:uppercase;letter-spacing:.08em;color:var(--muted)}
.hwb-row{display:flex;gap:6px;align-items:flex-start;flex-wrap:wrap}
.hwb-slot{width:100px;display:flex;flex-direction:column;gap:2px}
.hwb-empty{height:116px;border:1.5px dashed var(--line);border-radius:7px;background:var(--slot);
display:flex;align-items:center;justify-content:center;color:var(--muted);font-size:12px}
.hwb-card{position:relative;height:116px;border:2px solid var(--rc,var(--line));border-radius:7px;
background:var(--card);padding:3px 4px;display:flex;flex-direction:column;gap:1px;overflow:hidden}
.hwb-card::before{content:"";position:absolute;inset:0 0 auto 0;height:20px;background:var(--rc);opacity:.18}
.hwb-card>*{position:relative}
.hwb-name{font-weight:700;font-size:11.5px;line-height:1.15;max-height:2.3em;overflow:hidden;overflow-wrap:anywhere}
.hwb-top{display:flex;justify-content:space-between;align-items:flex-start;gap:2px}
.hwb-line{display:flex;align-items:center;gap:3px;min-width:0}
.hwb-cost{display:flex;gap:1px;flex-shrink:0}
.hwb-r{display:inline-flex;width:13px;height:13px;border-radius:50%;align-items:center;justify-content:center;
font:700 9px/1 "DejaVu Sans",sans-serif;color:#fff;background:var(--rc);flex-shrink:0}
.hwb-type{font-size:9.5px;color:var(--muted);white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
.hwb-text{font-size:9px;line-height:1.15;color:var(--muted);overflow:hidden;flex:1;min-height:0;
-webkit-mask-image:linear-gradient(#000 70%,transparent);mask-image:linear-gradient(#000 70%,transparent)}
.hwb-tags{display:flex;flex-wrap:wrap;gap:2px}
.hwb-tag{font-size:9px;line-height:1.1;border-radius:3px;padding:1px 3px;background:var(--chip);\
border:1px solid var(--line)}
.hwb-tag.hwb-sick{border-color:var(--warn);color:var(--warn)}
.hwb-tag.hwb-kw{font-weight:600}
.hwb-stats{display:flex;justify-content:space-between;align-items:center;margin-top:auto;white-space:nowrap}
.hwb-at{font-size:9.5px;color:var(--muted)}
.hwb-pw,.hwb-hp{font-weight:700;font-size:11.5px;border-radius:9px;padding:0 4px;border:1px solid var(--line);\
background:var(--chip)}
.hwb-hp.hwb-hurt{color:#fff;background:var(--hurt);border-color:var(--hurt)}
.hwb-up{color:var(--good)}.hwb-down{color:var(--warn)}
.hwb-back{height:116px;border-radius:7px;border:2px solid var(--back2);color:var(--backfg);
background:repeating-linear-gradient(45deg,var(--back1) 0 7px,var(--back2) 7px 14px);
display:flex;flex-direction:column;gap:4px;align-items:center;justify-content:center;font-weight:700;font-size:11px}
.hwb-back .hwb-at{color:var(--backfg)}
.hwb-fd{border-style:dashed}
.hwb-marker{font-size:10px;border:1.5px solid var(--rc,var(--line));border-radius:5px;padding:1px 4px;
background:var(--card);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.hwb-hand{display:flex;flex-wrap:wrap;gap:5px;align-items:flex-end}
.hwb-hand .hwb-slot{width:100px}
.hwb-mini{width:30px;height:42px;border-radius:4px;border:1.5px solid var(--back2);
background:repeating-linear-gradient(45deg,var(--back1) 0 4px,var(--back2) 4px 8px);margin-right:-9px;
box-shadow:1px 0 0 var(--bg)}
.hwb-count{margin-left:18px;font-weight:600}
.hwb-mid{display:flex;gap:10px;align-items:center;padding:3px 8px;border-top:1px dashed var(--line)}
.hwb-mid.hwb-fight{background:var(--over);border:1px solid var(--dmg);border-radius:5px;font-size:13px}
.hwb-stackcol{grid-column:3;grid-row:1 / 4;background:var(--panel);border:1px solid var(--line);border-radius:6px;
padding:6px;display:flex;flex-direction:column;gap:5px}
.hwb-item{border:1px solid var(--line);border-left:5px solid var(--pc);border-radius:5px;padding:3px 5px;\
background:var(--card)}
.hwb-item.hwb-hidden{background:repeating-linear-gradient(45deg,var(--back1) 0 6px,var(--back2) 6px 12px);\
color:var(--backfg)}
.hwb-itemhead{display:flex;justify-content:space-between;gap:4px;font-size:10px;color:var(--muted)}
.hwb-hidden .hwb-itemhead{color:var(--backfg)}
.hwb-itemname{font-weight:700}
.hwb-targets{font-size:11px}
.hwb-choice{font-size:11px;border-bottom:1px dotted var(--line);white-space:nowrap;overflow:hidden;\
text-overflow:ellipsis}
.hwb-h{font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.08em;color:var(--muted)}
"""
CSS = _CSS.replace("@LIGHT@", _vars(PALETTES["light"])).replace("@DARK@", _vars(PALETTES["dark"]))


def render_html(game: Any, seat: Seat) -> str:
    """The board ``seat`` sees (0, 1, ``"spectator"`` or None for everything) as HTML."""
    return board_html(board_of(game, seat))


def board_html(board: Board, theme: str | None = None) -> str:
    """HTML for a board model. ``theme`` ``"light"`` or ``"dark"`` forces a palette (default:
    the notebook's theme, else the browser's preference)."""
    cls = "hwb" + (f" hwb-{theme}" if theme in ("light", "dark") else "")
    top, bottom = board.top, board.bottom
    parts = [f"<div class='{cls}' data-seat='{escape(str(board.seat))}'><style>{CSS}</style>",
             _head(board), _decision(board), "<div class='hwb-grid'>",
             _info(board, top, "top"), _field(board, top, top_side=True),
             _stack_column(board),
             _middle(board),
             _info(board, bottom, "bottom"), _field(board, bottom, top_side=False),
             "</div></div>"]
    return "".join(parts)


# ------------------------------------------------------------------ header and decision


def _e(text: object) -> str:
    return escape(str(text), quote=True)


def _player(p: int, text: str | None = None) -> str:
    return f"<span class='hwb-p{SIDES[p]}'>{_e(SIDES[p] if text is None else text)}</span>"


def _head(b: Board) -> str:
    if not b.started or b.turn == 0:
        where = "game setup"
    else:
        where = (f"Turn {b.turn} &middot; {_player(b.tp)}'s turn &middot; phase "
                 f"<b>{_e(b.phase)}</b>")
        if b.step and b.phase in ("battle", "end"):
            where += f" &middot; step <b>{_e(b.step)}</b>"
    return (f"<div class='hwb-head'><span class='hwb-title'>HOST WCG</span>"
            f"<span class='hwb-where'>{where}</span>"
            f"<span class='hwb-seat'>{_e(b.seat_text())}</span></div>")


def _decision(b: Board) -> str:
    if b.over:
        return f"<div class='hwb-dec hwb-over'>{_e(b.result_text())}</div>"
    d = b.decision
    if d is None:
        return "<div class='hwb-dec hwb-muted'>No decision pending</div>"
    mine = b.mine()
    body = f"<b>{_player(d.player)} to decide:</b> {_e(d.kind_text())}"
    if d.prompt:
        body += f" <span class='hwb-muted'>&mdash; {_e(d.prompt)}</span>"
    if mine and d.actions:
        n = len(d.actions)
        body += f" <span class='hwb-muted'>({n} legal action{'s' if n != 1 else ''})</span>"
        chips = "".join(f"<span class='hwb-act'>{_e(a)}</span>" for a in d.actions[:MAX_ACTIONS])
        if n > MAX_ACTIONS:
            chips += f"<span class='hwb-act'>+{n - MAX_ACTIONS} more</span>"
        body += f"<div class='hwb-acts'>{chips}</div>"
    return f"<div class='hwb-dec{' hwb-mine' if mine else ''}'>{body}</div>"


# ------------------------------------------------------------------ a player's panel


def _info(b: Board, side: Side, where: str) -> str:
    p = side.player
    h = side.host
    out = [f"<div class='hwb-info' data-side='{SIDES[p]}' "
           f"style='grid-column:1;grid-row:{1 if where == 'top' else 3}'>",
           f"<div class='hwb-player'>{_player(p, 'Player ' + SIDES[p])}"
           f"{' <span class=hwb-muted>(you)</span>' if b.viewer == p else ''}</div>"]
    rc = RES_COLORS.get(h.resource, "var(--line)")
    if h.name is None:
        out.append("<div class='hwb-hostbox'><span class='hwb-muted'>Host hidden</span></div>")
    else:
        host = f"<div class='hwb-hostname'>{_e(h.name)}</div>"
        if h.health is not None:
            dmg = side.damage_count
            pct = min(100, round(100 * dmg / h.health)) if h.health > 0 else 100
            host += (f"<div class='hwb-kv'><span>health <b>{h.health}</b></span>"
                     f"<span>soul <b>{h.soul}</b></span></div>"
                     f"<div class='hwb-bar' title='damage zone {dmg} of health {h.health}'>"
                     f"<i style='width:{pct}%'></i></div>"
                     f"<div class='hwb-kv'><span>damage zone</span><b>{dmg}/{h.health}</b></div>")
        out.append(f"<div class='hwb-hostbox' style='border-color:{rc}' title='{_e(h.text)}'>{host}</div>")
        if side.damage:
            out.append(f"<div class='hwb-list'>damage: {_e(', '.join(c.name or '?' for c in side.damage))}</div>")
    pool = " ".join(f"<span class='hwb-r' style='--rc:{RES_COLORS.get(r, '#888')}' "
                    f"title='{_e(RESOURCE_NAMES.get(r, r))}'>{_e(r)}</span>&thinsp;{n}"
                    for r, n in side.pool_items()) or "<span class='hwb-muted'>empty</span>"
    out.append(f"<div class='hwb-kv'><span>action points</span><b>{side.ap}</b></div>")
    out.append(f"<div class='hwb-kv'><span>pool</span><span>{pool}</span></div>")
    top = f" <span class='hwb-muted'>top: {_e(side.drop[-1].name)}</span>" if side.drop else ""
    out.append(f"<div class='hwb-kv'><span>deck</span><b>{side.deck}</b></div>")
    out.append(f"<div class='hwb-kv' title='{_e(', '.join(c.name or '?' for c in side.drop))}'>"
               f"<span>drop{top}</span><b>{len(side.drop)}</b></div>")
    out.append(f"<div class='hwb-kv'><span>banished</span><b>{len(side.banished)}</b></div>")
    if side.banished:
        out.append(f"<div class='hwb-list'>{_e(', '.join(c.name or '?' for c in side.banished))}</div>")
    out.append("</div>")
    return "".join(out)


def _field(b: Board, side: Side, top_side: bool) -> str:
    label = SIDES[side.player]
    rows = [_hand(b, side),
            _row(f"{label} backrow", side.back, extra=_forms(side)),
            _row(f"{label} frontrow", side.front)]
    if not top_side:
        rows.reverse()
    return (f"<div class='hwb-field' data-side='{label}' "
            f"style='grid-column:2;grid-row:{1 if top_side else 3}'>"
            + "".join(rows) + "</div>")


def _row(label: str, slots: tuple[CardFace | None, ...], extra: str = "") -> str:
    cells = []
    for i, c in enumerate(slots):
        place = f"{label[0]}.{'f' if 'front' in label else 'b'}{i}"
        if c is None:
            cells.append(f"<div class='hwb-slot' data-place='{place}'><div class='hwb-empty'>"
                         f"{place.split('.')[1]}</div></div>")
        else:
            cells.append(_slot(c))
    row = (f"<div><div class='hwb-rowlabel'>{_e(label)}</div>"
           f"<div class='hwb-row'>{''.join(cells)}</div></div>")
    if not extra:
        return row
    return f"<div class='hwb-row' style='column-gap:16px'>{row}{extra}</div>"


def _forms(side: Side) -> str:
    if not side.forms:
        return ""
    return ("<div><div class='hwb-rowlabel'>forms</div>"
            f"<div class='hwb-row'>{''.join(_slot(c) for c in side.forms)}</div></div>")


def _hand(b: Board, side: Side) -> str:
    label = f"{SIDES[side.player]} hand"
    if side.hand is None:
        n = side.hand_count
        backs = "".join("<div class='hwb-mini'></div>" for _ in range(min(n, MAX_BACKS)))
        more = f"+{n - MAX_BACKS} " if n > MAX_BACKS else ""
        body = (f"<div class='hwb-hand' style='align-items:center;padding-left:2px'>{backs}"
                f"<span class='hwb-count'>{more}</span></div>") if n else ""
    else:
        body = f"<div class='hwb-hand'>{''.join(_slot(c) for c in side.hand)}</div>"
    n = side.hand_count
    count = f"{n} card{'s' if n != 1 else ''}" + (", hidden" if side.hand is None and n else "")
    return f"<div><div class='hwb-rowlabel'>{_e(label)}: {count}</div>{body}</div>"


# ------------------------------------------------------------------ cards


def _slot(c: CardFace) -> str:
    markers = "".join(
        f"<div class='hwb-marker' style='--rc:{RES_COLORS.get(m.resource, 'var(--line)')}' "
        f"title='{_e(m.tooltip())}'>+ {_e(m.name or 'face-down')}</div>" for m in c.markers)
    return f"<div class='hwb-slot' data-place='{_e(c.place)}'>{_card(c)}{markers}</div>"


def _card(c: CardFace) -> str:
    at = f"<span class='hwb-at'>{_e(c.place.split('.', 1)[-1])}</span>"
    if c.name is None:
        return f"<div class='hwb-back' title='face-down card'><span>face-down</span>{at}</div>"
    rc = RES_COLORS.get(c.resource, "#8a8f98")
    cost = "".join(f"<span class='hwb-r' style='--rc:{RES_COLORS.get(r, '#888')}' "
                   f"title='{_e(RESOURCE_NAMES.get(r, r))}'>{_e(r)}</span>" for r in c.cost)
    tags = []
    if c.face_down:
        tags.append("<span class='hwb-tag'>face-down</span>")
    for k in c.keywords:
        tags.append(f"<span class='hwb-tag hwb-kw'>{_e(k.replace('_', ' '))}</span>")
    if c.sick:
        tags.append("<span class='hwb-tag hwb-sick' title='Creation Sickness'>sick</span>")
    if c.attacked:
        tags.append("<span class='hwb-tag'>attacked</span>")
    if c.token:
        tags.append("<span class='hwb-tag'>token</span>")
    if c.controller != c.owner:
        tags.append(f"<span class='hwb-tag'>owner {SIDES[c.owner]}</span>")
    body = [f"<div class='hwb-name'>{_e(c.name)}</div>",
            f"<div class='hwb-line'><span class='hwb-cost'>{cost}</span>"
            f"<span class='hwb-type'>{_e(c.short_type())}</span></div>"]
    if tags:
        body.append(f"<div class='hwb-tags'>{''.join(tags)}</div>")
    body.append(f"<div class='hwb-text'>{_e(c.text)}</div>")
    if c.is_entity and c.power is not None and c.health is not None:
        pw_cls = _delta(c.power, c.printed_power)
        hp = f"&#9829;&thinsp;{c.health}" if not c.damage else f"&#9829;&thinsp;{c.left}/{c.health}"
        hurt = " hwb-hurt" if c.damage else ""
        title = f"{c.damage} damage" if c.damage else "health"
        body.append(f"<div class='hwb-stats'><span class='hwb-pw {pw_cls}' title='power'>"
                    f"&#9876;&thinsp;{c.power}</span>{at}"
                    f"<span class='hwb-hp{hurt} {_delta(c.health, c.printed_health)}' title='{title}'>{hp}</span>"
                    "</div>")
    else:
        body.append(f"<div class='hwb-stats' style='justify-content:flex-end'>{at}</div>")
    cls = "hwb-card" + (" hwb-fd" if c.face_down else "")
    return f"<div class='{cls}' style='--rc:{rc}' title='{_e(c.tooltip())}'>{''.join(body)}</div>"


def _delta(now: int | None, printed: int | None) -> str:
    if now is None or printed is None or now == printed:
        return ""
    return "hwb-up" if now > printed else "hwb-down"


# ------------------------------------------------------------------ the middle and the stack


def _middle(b: Board) -> str:
    if b.battle is None:
        return "<div class='hwb-mid' style='grid-column:1 / 3;grid-row:2'></div>"
    return (f"<div class='hwb-mid hwb-fight' style='grid-column:1 / 3;grid-row:2'>"
            f"<span>&#9876; <b>battle:</b> {_e(b.battle.text())}</span></div>")


def _stack_column(b: Board) -> str:
    items = "".join(_item(it) for it in b.stack_top_first) or "<div class='hwb-muted'>empty</div>"
    return (f"<div class='hwb-stackcol'><div class='hwb-h'>stack ({len(b.stack)}, top first)</div>"
            f"{items}{_choices(b)}</div>")


def _choices(b: Board) -> str:
    """The list a ``card d<i>`` action picks from (a search or a look), for its decider."""
    d = b.decision
    if d is None or not d.cards or not b.mine():
        return ""
    rows = "".join(f"<div class='hwb-choice' title='{_e(c.tooltip())}'><span class='hwb-at'>{_e(c.place)}</span> "
                   f"{_e(c.name or 'hidden card')}</div>" for c in d.cards)
    return f"<div class='hwb-h' style='margin-top:8px'>choosing from ({len(d.cards)})</div>{rows}"


def _item(it: StackEntry) -> str:
    pc = f"var(--{SIDES[it.controller].lower()})"
    head = (f"<div class='hwb-itemhead'><span>stack{it.index}</span>"
            f"<span>{_player(it.controller)}{' &middot; face-down' if it.face_down else ''}</span></div>")
    if it.name is None:
        return (f"<div class='hwb-item hwb-hidden' style='--pc:{pc}'>{head}"
                "<div class='hwb-itemname'>face-down card</div></div>")
    title = _e(it.card.tooltip()) if it.card is not None else ""
    cost = "".join(f"<span class='hwb-r' style='--rc:{RES_COLORS.get(r, '#888')}'>{_e(r)}</span>"
                   for r in (it.card.cost if it.card is not None and it.kind == "card" else ""))
    targets = "".join(f"<div class='hwb-targets'>&rarr; {_e(t.name)}: "
                      f"{_e(', '.join(t.what) or 'none')}</div>" for t in it.targets)
    return (f"<div class='hwb-item' style='--pc:{pc}' title='{title}'>{head}"
            f"<div class='hwb-top'><span class='hwb-itemname'>{_e(it.title())}</span>"
            f"<span class='hwb-cost'>{cost}</span></div>{targets}</div>")
