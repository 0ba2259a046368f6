"""The board as an RGB image drawn with Pillow: ``render_mode="rgb_array"`` and video.

Drawn from ``board_of`` (``model.py``) alone, in the HTML board's layout and colours
(``style.py``). The image size depends only on the table (slot counts) and the seat, never on
the position, so every frame of an episode has the same shape (video encoders need that);
``frame_size`` gives it. Needs Pillow (``pip install 'hostwcg[render]'``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

try:
    from PIL import Image, ImageDraw, ImageFont
except ImportError as e:  # pragma: no cover - depends on the install
    raise ImportError("the image board (render_mode='rgb_array') needs Pillow: "
                      "pip install 'hostwcg[render]' (or pip install Pillow)") from e

from .model import SIDES, Board, CardFace, Seat, Side, StackEntry, board_of
from .style import NO_RESOURCE, PALETTES, RES_COLORS

M = 8  # outer margin
GAP = 6  # between cards
CW, CH = 100, 116  # a card
SW = CW + GAP  # a slot's stride
INFO_W = 200  # a player's panel
STACK_W = 220  # the stack column
HEAD_H, DEC_H, MID_H = 28, 48, 26
LABEL_H = 15  # a row's label
MARK_H = 17  # a marker under its card
FRONT_MARKS, BACK_MARKS = 2, 1  # marker lines kept under each row
BACKS_H = 46  # a hidden hand
MAX_FORMS_SHOWN = 3


# ============================================================================ fonts


_FONT_FILES = {False: ("DejaVuSans.ttf",), True: ("DejaVuSans-Bold.ttf",)}


@lru_cache(maxsize=64)
def _font(size: int, bold: bool = False) -> Any:
    """DejaVu Sans where the system or matplotlib has it, else Pillow's own font."""
    for name in _FONT_FILES[bold]:
        for path in _font_paths(name):
            try:
                return ImageFont.truetype(path, size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)


def _font_paths(name: str) -> list[str]:
    paths = [name, f"/usr/share/fonts/truetype/dejavu/{name}"]
    try:
        import matplotlib

        paths.append(f"{matplotlib.get_data_path()}/fonts/ttf/{name}")
    except ImportError:
        pass
    return paths


@lru_cache(maxsize=1)
def _has_symbols() -> bool:
    """Whether the font draws the sword and heart (Pillow's own font does not)."""
    f = _font(14)
    return bool(getattr(f, "path", None)) and "DejaVu" in str(f.getname()[0])


# ============================================================================ geometry


def _field_w(nf: int, nb: int) -> int:
    return max(nf * SW, nb * SW + 10 + MAX_FORMS_SHOWN * SW)


def _side_h(hand_up: bool) -> int:
    hand = LABEL_H + (CH if hand_up else BACKS_H)
    back = LABEL_H + CH + BACK_MARKS * MARK_H + 4
    front = LABEL_H + CH + FRONT_MARKS * MARK_H + 4
    return hand + back + front


def _round16(n: int) -> int:
    return (n + 15) // 16 * 16


def frame_size(front_slots: int = 5, back_slots: int = 4, top_hand_shown: bool = False) -> tuple[int, int]:
    """(height, width) of the image of a table with these slot counts (a multiple of 16 each,
    as video encoders like). ``top_hand_shown``: the board shows both hands (seat None)."""
    w = M + INFO_W + M + _field_w(front_slots, back_slots) + M + STACK_W + M
    h = M + HEAD_H + DEC_H + _side_h(top_hand_shown) + MID_H + _side_h(True) + M
    return _round16(h), _round16(w)


# ============================================================================ entry points


def render_rgb(game: Any, seat: Seat, theme: str = "light") -> np.ndarray:
    """The board ``seat`` sees as an (H, W, 3) uint8 array."""
    return board_image(board_of(game, seat), theme)


def board_image(board: Board, theme: str = "light") -> np.ndarray:
    """An (H, W, 3) uint8 array of a board model."""
    return np.asarray(board_image_pil(board, theme), dtype=np.uint8)


def board_image_pil(board: Board, theme: str = "light") -> Image.Image:
    return draw_board(board, theme)[0]


def draw_board(board: Board, theme: str = "light") -> tuple[Image.Image, dict[str, tuple[int, int, int, int]]]:
    """The image and where each slot and card was drawn: place (``A.f0``, ``B.h2``) ->
    (x, y, width, height)."""
    if theme not in PALETTES:
        raise ValueError(f"theme must be one of {sorted(PALETTES)}, got {theme!r}")
    painter = _Painter(board, PALETTES[theme])
    return painter.draw(), painter.boxes


# ============================================================================ drawing


def _rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)


def _mix(a: str, b: str, t: float) -> tuple[int, int, int]:
    """``a`` blended over ``b`` with opacity ``t``."""
    ra, rb = _rgb(a), _rgb(b)
    return tuple(round(x * t + y * (1 - t)) for x, y in zip(ra, rb, strict=True))  # type: ignore[return-value]


def _length(s: str, size: int, bold: bool = False) -> float:
    return _length_cached(s, size, bold)


@lru_cache(maxsize=8192)
def _length_cached(s: str, size: int, bold: bool) -> float:
    return float(_font(size, bold).getlength(s))


class _Canvas:
    """Drawing primitives in one palette on one image."""

    def __init__(self, img: Image.Image, palette: dict[str, str]) -> None:
        self.img = img
        self.p = palette
        self.d = ImageDraw.Draw(img)

    # -------------------------------------------------------------- primitives
    def c(self, name: str) -> tuple[int, int, int]:
        return _rgb(self.p[name]) if name in self.p else _rgb(name)

    def text(self, xy: tuple[float, float], s: str, size: int = 12, fill: str = "fg",
             bold: bool = False, anchor: str = "la", maxw: float | None = None) -> float:
        """Draw one line (cut with an ellipsis to ``maxw``); returns its width."""
        if maxw is not None:
            s = self.fit(s, size, maxw, bold)
        self.d.text(xy, s, font=_font(size, bold), fill=self.c(fill), anchor=anchor)
        return _length(s, size, bold)

    @staticmethod
    def fit(s: str, size: int, maxw: float, bold: bool = False) -> str:
        if _length(s, size, bold) <= maxw:
            return s
        while s and _length(s + "…", size, bold) > maxw:
            s = s[:-1]
        return s + "…"

    def wrap(self, s: str, size: int, maxw: float, bold: bool = False) -> list[str]:
        lines: list[str] = []
        for word in s.split():
            if lines and _length(lines[-1] + " " + word, size, bold) <= maxw:
                lines[-1] += " " + word
            else:
                lines.append(word if _length(word, size, bold) <= maxw else self.fit(word, size, maxw, bold))
        return lines

    def box(self, x: float, y: float, w: float, h: float, fill: str | tuple[int, int, int] | None,
            outline: str | tuple[int, int, int] | None = "line", width: int = 1, r: int = 6) -> None:
        f = self.c(fill) if isinstance(fill, str) else fill
        o = self.c(outline) if isinstance(outline, str) else outline
        self.d.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=r, fill=f, outline=o, width=width)

    def dashed(self, x: float, y: float, w: float, h: float, color: str | tuple[int, int, int],
               width: int = 2, dash: int = 5) -> None:
        col = self.c(color) if isinstance(color, str) else color
        for x0 in range(int(x), int(x + w), dash * 2):
            x1 = min(x0 + dash, int(x + w) - 1)
            self.d.line((x0, y, x1, y), fill=col, width=width)
            self.d.line((x0, y + h - 1, x1, y + h - 1), fill=col, width=width)
        for y0 in range(int(y), int(y + h), dash * 2):
            y1 = min(y0 + dash, int(y + h) - 1)
            self.d.line((x, y0, x, y1), fill=col, width=width)
            self.d.line((x + w - 1, y0, x + w - 1, y1), fill=col, width=width)

    def back(self, x: float, y: float, w: int, h: int, r: int = 6) -> None:
        """A card back: diagonal stripes in a rounded frame."""
        tile = _stripes(w, h, self.p["back1"], self.p["back2"], 7 if h > 60 else 4)
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=r, fill=255)
        self.img.paste(tile, (int(x), int(y)), mask)
        self.d.rounded_rectangle((x, y, x + w - 1, y + h - 1), radius=r, outline=self.c("back2"), width=2)

    def pip(self, x: float, y: float, sym: str, d: int = 13) -> None:
        """A resource symbol in its coloured disc."""
        self.d.ellipse((x, y, x + d - 1, y + d - 1), fill=_rgb(RES_COLORS.get(sym, NO_RESOURCE)))
        self.d.text((x + d / 2, y + d / 2), sym, font=_font(max(8, d - 5), True), fill=(255, 255, 255),
                    anchor="mm")

    def chip(self, x: float, y: float, s: str, size: int = 9, fill: str = "chip",
             color: str = "fg", outline: str = "line", bold: bool = False, pad: int = 3) -> float:
        w = _length(s, size, bold) + 2 * pad
        self.box(x, y, w, size + 5, fill, outline, 1, r=3)
        self.text((x + pad, y + 1), s, size, color, bold)
        return w

    def player(self, p: int) -> str:
        return "a" if p == 0 else "b"


class _Painter(_Canvas):
    def __init__(self, board: Board, palette: dict[str, str]) -> None:
        self.b = board
        nf = max(len(s.front) for s in board.sides)
        nb = max(len(s.back) for s in board.sides)
        self.h, self.w = frame_size(nf, nb, board.top.hand is not None)
        self.field_w = _field_w(nf, nb)
        self.boxes: dict[str, tuple[int, int, int, int]] = {}
        super().__init__(Image.new("RGB", (self.w, self.h), _rgb(palette["bg"])), palette)

    # -------------------------------------------------------------- the board
    def draw(self) -> Image.Image:
        b = self.b
        y = M
        self.head(y)
        y += HEAD_H
        self.decision(y)
        y += DEC_H
        top_h = _side_h(b.top.hand is not None)
        bottom_h = _side_h(True)
        fx = M + INFO_W + M
        sx = fx + self.field_w + M
        self.stack_column(sx, y, self.w - M - sx, top_h + MID_H + bottom_h)
        self.info(M, y, b.top, top_h - 4)
        self.field(fx, y, b.top, top_side=True)
        self.middle(M, y + top_h, sx - M - M)
        y2 = y + top_h + MID_H
        self.info(M, y2, b.bottom, bottom_h - 4)
        self.field(fx, y2, b.bottom, top_side=False)
        return self.img

    def head(self, y: int) -> None:
        b = self.b
        self.text((M + 4, y + 5), "HOST WCG", 13, bold=True)
        x: float = M + 100
        if not b.started or b.turn == 0:
            self.text((x, y + 5), "game setup", 13)
        else:
            x += self.text((x, y + 5), f"Turn {b.turn} · ", 13)
            x += self.text((x, y + 5), SIDES[b.tp], 13, self.player(b.tp), bold=True)
            x += self.text((x, y + 5), f"'s turn · phase {b.phase}", 13)
            if b.step and b.phase in ("battle", "end"):
                self.text((x, y + 5), f" · step {b.step}", 13)
        self.text((self.w - M - 4, y + 5), b.seat_text(), 12, "muted", anchor="ra")
        self.d.line((M, y + HEAD_H - 3, self.w - M, y + HEAD_H - 3), fill=self.c("line"))

    def decision(self, y: int) -> None:
        b = self.b
        x0, w, h = M, self.w - 2 * M, DEC_H - 6
        if b.over:
            self.box(x0, y, w, h, "over")
            self.text((x0 + 8, y + 12), b.result_text(), 14, bold=True)
            return
        d = b.decision
        mine = b.mine()
        self.box(x0, y, w, h, "mine" if mine else "panel")
        x: float
        if d is None:
            self.text((x0 + 8, y + 5), "No decision pending", 12, "muted")
            return
        x = x0 + 8
        x += self.text((x, y + 5), SIDES[d.player], 12, self.player(d.player), bold=True)
        x += self.text((x, y + 5), " to decide: ", 12, bold=True)
        x += self.text((x, y + 5), d.kind_text(), 12)
        if d.prompt:
            x += self.text((x, y + 5), f" — {d.prompt}", 12, "muted", maxw=x0 + w - x - 8)
        if not (mine and d.actions):
            return
        n = len(d.actions)
        x = x0 + 8
        self.text((x0 + w - 8, y + 5), f"{n} legal action{'s' if n != 1 else ''}", 11, "muted", anchor="ra")
        for i, a in enumerate(d.actions):
            wa = _length(a, 9) + 6
            if x + wa + 60 > x0 + w and i < n - 1:
                self.chip(x, y + 23, f"+{n - i} more", 9)
                break
            x += self.chip(x, y + 23, a, 9) + 3

    # -------------------------------------------------------------- a player's panel
    def info(self, x: int, y: int, side: Side, h: int) -> None:
        b = self.b
        self.box(x, y, INFO_W, h, "panel")
        p = side.player
        ix, iw = x + 7, INFO_W - 14
        yy = y + 6
        w = self.text((ix, yy), f"Player {SIDES[p]}", 15, self.player(p), bold=True)
        if b.viewer == p:
            self.text((ix + w + 5, yy + 2), "(you)", 13, "muted")
        yy += 24
        host = side.host
        if host.name is None:
            self.box(ix, yy, iw, 26, "card")
            self.text((ix + 6, yy + 6), "Host hidden", 12, "muted")
            yy += 32
        else:
            hh = 72 if host.health is not None else 26
            self.box(ix, yy, iw, hh, "card", RES_COLORS.get(host.resource, NO_RESOURCE), 2)
            if host.resource:
                self.pip(ix + iw - 19, yy + 5, host.resource)
            self.text((ix + 6, yy + 5), host.name, 12, bold=True, maxw=iw - 30)
            if host.health is not None:
                dmg = side.damage_count
                self.text((ix + 6, yy + 22), "health", 12)
                self.text((ix + 50, yy + 22), str(host.health), 12, bold=True)
                self.text((ix + iw - 6, yy + 22), f"soul {host.soul}", 12, anchor="ra")
                self.box(ix + 6, yy + 40, iw - 12, 7, "chip", None, r=3)
                frac = min(1.0, dmg / host.health) if host.health > 0 else 1.0
                if frac > 0:
                    self.box(ix + 6, yy + 40, max(7, round((iw - 12) * frac)), 7, "dmg", None, r=3)
                self.text((ix + 6, yy + 52), "damage zone", 12)
                self.text((ix + iw - 6, yy + 52), f"{dmg}/{host.health}", 12, bold=True, anchor="ra")
            yy += hh + 5
        if side.damage:
            for line in self.wrap("damage: " + ", ".join(c.name or "?" for c in side.damage), 10, iw)[:2]:
                self.text((ix, yy), line, 10, "muted")
                yy += 13
            yy += 2
        self.kv(ix, yy, iw, "action points", str(side.ap))
        yy += 19
        self.text((ix, yy), "pool", 12)
        items = side.pool_items()
        if not items:
            self.text((ix + iw, yy), "empty", 12, "muted", anchor="ra")
        else:
            px: float = ix + iw
            for r, n in reversed(items):
                px -= self.text((px, yy), str(n), 12, bold=True, anchor="ra") + 2
                px -= 14
                self.pip(px, yy + 1, r)
                px -= 6
        yy += 19
        self.kv(ix, yy, iw, "deck", str(side.deck))
        yy += 19
        w = self.text((ix, yy), "drop", 12)
        if side.drop:
            self.text((ix + w + 5, yy), f"top: {side.drop[-1].name}", 12, "muted", maxw=iw - w - 30)
        self.text((ix + iw, yy), str(len(side.drop)), 12, bold=True, anchor="ra")
        yy += 19
        self.kv(ix, yy, iw, "banished", str(len(side.banished)))
        yy += 17
        if side.banished:
            for line in self.wrap(", ".join(c.name or "?" for c in side.banished), 10, iw)[:2]:
                self.text((ix, yy), line, 10, "muted")
                yy += 13

    def kv(self, x: int, y: int, w: int, k: str, v: str) -> None:
        self.text((x, y), k, 12)
        self.text((x + w, y), v, 12, bold=True, anchor="ra")

    # -------------------------------------------------------------- the field
    def field(self, x: int, y: int, side: Side, top_side: bool) -> None:
        label = SIDES[side.player]
        hand_h = LABEL_H + (CH if side.hand is not None else BACKS_H)
        back_h = LABEL_H + CH + BACK_MARKS * MARK_H + 4
        front_h = LABEL_H + CH + FRONT_MARKS * MARK_H + 4
        parts = [("hand", hand_h), ("back", back_h), ("front", front_h)]
        if not top_side:
            parts.reverse()
        for what, h in parts:
            if what == "hand":
                self.hand(x, y, side, label)
            elif what == "back":
                self.row(x, y, f"{label} backrow", side.back, BACK_MARKS)
                if side.forms:
                    self.forms(x + len(side.back) * SW + 10, y, side.forms)
            else:
                self.row(x, y, f"{label} frontrow", side.front, FRONT_MARKS)
            y += h

    def label(self, x: float, y: float, s: str) -> None:
        self.text((x, y + 1), s.upper(), 9, "muted")

    def row(self, x: int, y: int, label: str, slots: tuple[CardFace | None, ...], marks: int) -> None:
        self.label(x, y, label)
        y += LABEL_H
        for i, c in enumerate(slots):
            cx = x + i * SW
            if c is None:
                self.boxes[f"{label[0]}.{label[2]}{i}"] = (cx, y, CW, CH)
                self.box(cx, y, CW, CH, "slot", "line", 1)
                self.text((cx + CW / 2, y + CH / 2), f"{label[2]}{i}", 12, "muted", anchor="mm")
            else:
                self.card(cx, y, c)
                self.markers(cx, y + CH + 2, c, marks)

    def forms(self, x: int, y: int, forms: tuple[CardFace, ...]) -> None:
        self.label(x, y, "forms" + (f" (+{len(forms) - MAX_FORMS_SHOWN} more)"
                                   if len(forms) > MAX_FORMS_SHOWN else ""))
        for i, c in enumerate(forms[:MAX_FORMS_SHOWN]):
            self.card(x + i * SW, y + LABEL_H, c)
            self.markers(x + i * SW, y + LABEL_H + CH + 2, c, BACK_MARKS)

    def markers(self, x: int, y: int, c: CardFace, keep: int) -> None:
        ms = list(c.markers)
        for k, m in enumerate(ms[:keep]):
            more = len(ms) - keep if k == keep - 1 and len(ms) > keep else 0
            self.box(x, y + k * MARK_H, CW, MARK_H - 2, "card",
                     RES_COLORS.get(m.resource, NO_RESOURCE), 2, r=4)
            name = "+ " + (m.name or "face-down") + (f" (+{more})" if more else "")
            self.text((x + 5, y + k * MARK_H + 1), name, 10, maxw=CW - 8)

    def hand(self, x: int, y: int, side: Side, label: str) -> None:
        n = side.hand_count
        hidden = side.hand is None
        self.label(x, y, f"{label} hand: {n} card{'s' if n != 1 else ''}" + (", hidden" if hidden and n else ""))
        y += LABEL_H
        if side.hand is None:
            for i in range(min(n, 12)):
                self.back(x + i * 21, y, 30, 42, r=4)
            if n > 12:
                self.text((x + 12 * 21 + 18, y + 14), f"+{n - 12}", 12, bold=True)
            return
        cards = side.hand
        step = SW if len(cards) * SW <= self.field_w else max(24, (self.field_w - CW) // max(1, len(cards) - 1))
        for i, c in enumerate(cards):
            self.card(x + i * step, y, c)

    # -------------------------------------------------------------- a card
    def card(self, x: int, y: int, c: CardFace) -> None:
        self.boxes[c.place] = (int(x), int(y), CW, CH)
        self.img.paste(_card_tile(c, _theme_of(self.p)), (int(x), int(y)))

    # -------------------------------------------------------------- the middle and the stack
    def middle(self, x: int, y: int, w: int) -> None:
        bt = self.b.battle
        if bt is None:
            self.d.line((x, y + MID_H // 2, x + w, y + MID_H // 2), fill=self.c("line"))
            return
        self.box(x, y + 2, w, MID_H - 4, "over", "dmg", 1, r=5)
        s = ("⚔ " if _has_symbols() else "") + "battle: "
        xx = x + 8 + self.text((x + 8, y + 6), s, 12, bold=True)
        self.text((xx, y + 6), bt.text(), 12, maxw=w - (xx - x) - 8)

    def stack_column(self, x: int, y: int, w: int, h: int) -> None:
        b = self.b
        self.box(x, y, w, h, "panel")
        self.text((x + 7, y + 6), f"STACK ({len(b.stack)}, TOP FIRST)", 10, "muted", bold=True)
        yy = y + 24
        d = b.decision
        choices = d.cards if d is not None and b.mine() else ()
        room = y + h - (min(len(choices), 12) * 15 + 40 if choices else 0)
        entries = b.stack_top_first
        if not entries:
            self.text((x + 7, yy), "empty", 12, "muted")
        for k, it in enumerate(entries):
            lines = self.entry_lines(it, w - 20)
            eh = 34 + 13 * len(lines)
            if yy + eh > room - 22 and k < len(entries) - 1:
                self.text((x + 7, yy), f"+{len(entries) - k} more", 11, "muted")
                break
            self.entry(x + 6, yy, w - 12, eh, it, lines)
            yy += eh + 5
        if choices:
            self.choices(x, yy + (10 if entries else 24), w, y + h, choices)

    def choices(self, x: int, y: int, w: int, bottom: int, cards: tuple[CardFace, ...]) -> None:
        """The list a ``card d<i>`` action picks from (a search or a look)."""
        self.text((x + 7, y), f"CHOOSING FROM ({len(cards)})", 10, "muted", bold=True)
        y += 18
        for k, c in enumerate(cards):
            if y + 30 > bottom and k < len(cards) - 1:
                self.text((x + 7, y), f"+{len(cards) - k} more", 11, "muted")
                return
            self.text((x + 7, y), c.place, 10, "muted")
            self.text((x + 32, y), c.name or "hidden card", 11, maxw=w - 40)
            y += 15

    def entry_lines(self, it: StackEntry, w: int) -> list[str]:
        out: list[str] = []
        for t in it.targets:
            out += self.wrap(f"→ {t.name}: {', '.join(t.what) or 'none'}", 10, w)
        return out[:4]

    def entry(self, x: int, y: int, w: int, h: int, it: StackEntry, lines: list[str]) -> None:
        pc = self.player(it.controller)
        if it.name is None:
            self.back(x, y, w, h, r=5)
        else:
            self.box(x, y, w, h, "card", "line", 1, r=5)
        self.d.rectangle((x, y + 1, x + 4, y + h - 2), fill=self.c(pc))
        muted = "backfg" if it.name is None else "muted"
        fg = "backfg" if it.name is None else "fg"
        self.text((x + 10, y + 3), f"stack{it.index}", 10, muted)
        tag = SIDES[it.controller] + (" · face-down" if it.face_down else "")
        self.text((x + w - 6, y + 3), tag, 10, pc if it.name is not None else "backfg", anchor="ra")
        px = x + w - 6
        if it.card is not None and it.kind == "card":
            for sym in reversed(it.card.cost):
                px -= 13
                self.pip(px, y + 17, sym, 12)
        self.text((x + 10, y + 16), it.title(), 12, fg, bold=True, maxw=px - x - 14)
        yy = y + 33
        for line in lines:
            self.text((x + 10, yy), line, 10, fg)
            yy += 13


class _CardCanvas(_Canvas):
    def card(self, x: int, y: int, c: CardFace) -> None:
        """A card box at (x, y)."""
        at = c.place.split(".", 1)[1] if "." in c.place else c.place
        if c.name is None:
            self.back(x, y, CW, CH)
            self.text((x + CW / 2, y + CH / 2 - 8), "face-down", 11, "backfg", bold=True, anchor="mm")
            self.text((x + CW / 2, y + CH / 2 + 9), at, 10, "backfg", anchor="mm")
            return
        rc = RES_COLORS.get(c.resource, NO_RESOURCE)
        self.box(x, y, CW, CH, "card", None, r=7)
        self.d.rounded_rectangle((x, y, x + CW - 1, y + 21), radius=7, fill=_mix(rc, self.p["card"], 0.2))
        self.d.rectangle((x + 1, y + 14, x + CW - 2, y + 21), fill=_mix(rc, self.p["card"], 0.2))
        if c.face_down:
            self.d.rounded_rectangle((x, y, x + CW - 1, y + CH - 1), radius=7, outline=self.c("card"), width=2)
            self.dashed(x, y, CW, CH, _rgb(rc))
        else:
            self.d.rounded_rectangle((x, y, x + CW - 1, y + CH - 1), radius=7, outline=_rgb(rc), width=2)
        ix, iw = x + 5, CW - 10
        name = self.wrap(c.name, 11, iw, bold=True)
        yy = y + 4
        for line in name[:2]:
            self.text((ix, yy), line, 11, bold=True, maxw=iw)
            yy += 13
        yy = max(yy, y + 18) + 2
        px = ix
        for sym in c.cost:
            self.pip(px, yy, sym, 12)
            px += 13
        self.text((px + 2, yy), c.short_type(), 9, "muted", maxw=x + CW - 5 - px - 2)
        yy += 15
        tags: list[tuple[str, str]] = []
        if c.face_down:
            tags.append(("face-down", "fg"))
        tags += [(k.replace("_", " "), "fg") for k in c.keywords]
        if c.sick:
            tags.append(("sick", "warn"))
        if c.attacked:
            tags.append(("attacked", "fg"))
        if c.token:
            tags.append(("token", "fg"))
        if c.controller != c.owner:
            tags.append((f"owner {SIDES[c.owner]}", "fg"))
        tx: float = ix
        for t, col in tags:
            tw = _length(t, 9, True) + 6
            if tx + tw > x + CW - 4 and tx > ix:
                tx = ix
                yy += 15
            tx += self.chip(tx, yy, t, 9, color=col, outline=col if col != "fg" else "line", bold=True) + 2
        if tags:
            yy += 16
        stats = c.is_entity and c.power is not None and c.health is not None
        bottom = y + CH - (22 if stats else 16)
        for line in self.wrap(c.text, 9, iw):
            if yy + 11 > bottom:
                break
            self.text((ix, yy), line, 9, "muted")
            yy += 11
        if stats:
            self.stats(x, y + CH - 19, c, at)
        else:
            self.text((x + CW - 6, y + CH - 14), at, 9, "muted", anchor="ra")

    def stats(self, x: int, y: int, c: CardFace, at: str) -> None:
        sym = _has_symbols()
        pw = ("⚔ " if sym else "P ") + str(c.power)
        hp = ("♥ " if sym else "H ") + (f"{c.left}/{c.health}" if c.damage else str(c.health))
        pcol = _delta(c.power, c.printed_power)
        w = _length(pw, 11, True) + 8
        self.box(x + 4, y, w, 15, "chip", "line", 1, r=7)
        self.text((x + 8, y + 1), pw, 11, pcol, bold=True)
        w2 = _length(hp, 11, True) + 8
        hx = x + CW - 4 - w2
        if c.damage:
            self.box(hx, y, w2, 15, "hurt", "hurt", 1, r=7)
            self.text((hx + 4, y + 1), hp, 11, "#ffffff", bold=True)
        else:
            self.box(hx, y, w2, 15, "chip", "line", 1, r=7)
            self.text((hx + 4, y + 1), hp, 11, _delta(c.health, c.printed_health), bold=True)
        self.text((x + 4 + w + (hx - x - 4 - w) / 2, y + 8), at, 9, "muted", anchor="mm")


def _theme_of(palette: dict[str, str]) -> str:
    return next(k for k, v in PALETTES.items() if v is palette)


@lru_cache(maxsize=1024)
def _card_tile(c: CardFace, theme: str) -> Image.Image:
    """A card's box, drawn once per look (cards rarely change from one frame to the next)."""
    palette = PALETTES[theme]
    tile = _CardCanvas(Image.new("RGB", (CW, CH), _rgb(palette["bg"])), palette)
    tile.card(0, 0, c)
    return tile.img


def _delta(now: int | None, printed: int | None) -> str:
    if now is None or printed is None or now == printed:
        return "fg"
    return "good" if now > printed else "warn"


@lru_cache(maxsize=16)
def _stripes(w: int, h: int, c1: str, c2: str, band: int) -> Image.Image:
    tile = Image.new("RGB", (w, h), _rgb(c1))
    d = ImageDraw.Draw(tile)
    for k in range(-h, w + h, 2 * band):
        d.polygon([(k, h), (k + h, 0), (k + h + band, 0), (k + band, h)], fill=_rgb(c2))
    return tile
