"""The board one seat sees (hostwcg_env/board): the model, the HTML board, the image board and
the env's render plumbing (rgb_array, _repr_html_ through the wrappers, video recording).

A player's board is built only from its PlayerView; the spectator's shows public cards only;
resampling everything a seat may not see changes neither its HTML nor its image.
"""

from __future__ import annotations

import random
import re
import sys
import types
from html.parser import HTMLParser
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import hostwcg_env  # noqa: F401  (registers the card pool)
from hostwcg_env import hostwcg_v0
from hostwcg_env.board import SPECTATOR, board_of
from hostwcg_env.board.html import board_html
from hostwcg_env.board.image import board_image, draw_board, frame_size, render_rgb
from hostwcg_env.board.style import PALETTES, RES_COLORS
from hostwcg_env.cards import default_ruleset
from hostwcg_env.engine import Game
from hostwcg_env.engine.view import determinize
from hostwcg_env.env import shipped_decks
from hostwcg_env.env.aec import RENDER_FPS
from hostwcg_env.env.html import render_html
from hostwcg_env.env.single import SingleAgentEnv
from hostwcg_env.render import render_text
from hostwcg_env.scenarios import setup_game

SECRET_HAND = ["Doom", "Sweep"]  # B's hand
SECRET_BACK = "Snare"  # face-down in B.b0
SECRET_LAYING = "Backlash"  # a face-down Ambush B is laying, on the stack
SECRET_DAMAGE = "Cull"  # in B's damage zone
SECRET_DECK = "Quickling"  # in both decks
A_SECRETS = ["Watchtower", "Wall"]  # A's face-down A.b0 and A's damage zone (A's hand: Squire, Ogre)


def position() -> Game:
    """Both sides busy: hands, face-down cards on both sides, markers, an Entity controlled by
    its non-owner, damage, a Form, a pool, the drop and banished zones, and a stack with a
    face-down item under a targeted one."""
    doc = {"setup": {
        "turn": 3, "phase": "action1",
        "A": {"host": "Test Host", "hand": ["Squire", "Ogre"], "deck": [SECRET_DECK] * 10,
              "front": {"0": {"card": "Raider", "damage": 1, "sick": True},
                        "1": {"card": "Ogre", "owner": "B", "markers": ["Iron Blade"]}},
              "back": {"0": "Watchtower", "1": {"card": "Beacon"}},
              "damage_zone": ["Wall"], "drop": ["Spark"], "banished": ["Squire"],
              "forms": ["Oath of Steel"], "pool": {"£": 1, "&": 2}, "ap": 3},
        "B": {"host": "Strife Host", "hand": SECRET_HAND, "deck": [SECRET_DECK] * 10,
              "back": {"0": SECRET_BACK}, "damage_zone": [SECRET_DAMAGE],
              "front": {"2": {"card": "Slayer", "markers": ["Iron Blade"]}}},
        "stack": [{"controller": "B", "card": SECRET_LAYING},
                  {"controller": "A", "card": "Blast", "targets": ["B.host"]}],
    }}
    return setup_game(doc, "<test>")


def _states(n_games: int, every: int, seed0: int = 0):  # type: ignore[no-untyped-def]
    decks = shipped_decks()
    for seed in range(seed0, seed0 + n_games):
        rng = random.Random(seed)
        g = default_ruleset().new_game(rng.choice(decks), rng.choice(decks), seed=seed)
        k = 0
        while not g.is_over:
            if k % every == 0:
                yield g
            g.apply(rng.choice(g.legal_actions()))
            k += 1


class _ViewsOnly:
    """A game that answers ``view(p)`` and fails loudly when its state is read."""

    def __init__(self, game: Game, allowed: tuple[int, ...]) -> None:
        self._g = game
        self._allowed = allowed

    def view(self, p: int) -> Any:
        assert p in self._allowed, f"the board asked for player {p}'s view"
        return self._g.view(p)

    @property
    def state(self) -> Any:
        raise AssertionError("the board read the full game state")


# ============================================================================ the model


def test_player_board_shows_what_the_view_shows_and_nothing_else() -> None:
    b = board_of(position(), 0)
    me, opp = b.sides
    assert b.bottom is me and b.top is opp
    assert opp.hand is None and opp.hand_count == 2
    assert opp.damage is None and opp.damage_count == 1
    assert opp.back[0] is not None and opp.back[0].hidden and opp.back[0].place == "B.b0"
    assert [c.name for c in me.hand or ()] == ["Squire", "Ogre"]
    assert [c.place for c in me.hand or ()] == ["A.h0", "A.h1"]
    assert [c.name for c in me.damage or ()] == ["Wall"]
    assert me.back[0] is not None and me.back[0].name == "Watchtower" and me.back[0].face_down
    raider, ogre = me.front[0], me.front[1]
    assert raider is not None and raider.damage == 1 and raider.sick and raider.left == raider.health - 1
    assert raider.power is not None and raider.printed_power is not None
    assert raider.power > raider.printed_power  # Beacon: +1 power to A's Entities
    assert ogre is not None and ogre.owner == 1 and ogre.controller == 0
    assert [m.name for m in ogre.markers] == ["Iron Blade"] and ogre.markers[0].place == "A.f1.m0"
    assert [c.name for c in me.forms] == ["Oath of Steel"] and me.pool == {"£": 1, "&": 2}
    assert me.ap == 3 and me.deck == 10 and [c.name for c in me.banished] == ["Squire"]
    assert [c.name for c in me.drop] == ["Spark"]
    assert me.front[2] is None and len(me.front) == 5 and len(me.back) == 4
    bottom, top = b.stack
    assert bottom.name is None and bottom.controller == 1  # B's face-down Ambush being laid
    assert top.name == "Blast" and [(t.name, t.what) for t in top.targets] == [("t", ("B.host",))]
    assert [it.index for it in b.stack_top_first] == [1, 0]
    assert b.decision is not None and b.mine() and "pass" in b.decision.actions
    assert b.where_text() == "Turn 3 (A's turn) | phase action1"


def test_opponent_seat_sees_its_own_cards_and_not_mine() -> None:
    b = board_of(position(), 1)
    me, opp = b.sides[1], b.sides[0]
    assert b.bottom is me
    assert [c.name for c in me.hand or ()] == SECRET_HAND
    assert me.back[0] is not None and me.back[0].name == SECRET_BACK
    assert b.stack[0].name == SECRET_LAYING
    assert opp.hand is None and opp.back[0] is not None and opp.back[0].hidden
    assert b.decision is not None and b.decision.actions == () and not b.mine()


def test_spectator_board_is_public_only_and_everything_board_is_everything() -> None:
    game = position()
    spec = board_of(game, SPECTATOR)
    for side in spec.sides:
        assert side.hand is None and side.damage is None
        assert side.back[0] is not None and side.back[0].hidden  # face-down on both sides
    assert spec.stack[0].name is None
    assert spec.decision is not None and spec.decision.actions == () and not spec.mine()
    assert spec.sides[0].front[1] is not None and spec.sides[0].front[1].name == "Ogre"
    every = board_of(game, None)
    assert [c.name for c in every.sides[1].hand or ()] == SECRET_HAND
    assert every.sides[0].back[0] is not None and every.sides[0].back[0].name == "Watchtower"
    assert every.mine()


def test_boards_are_built_from_player_views_only() -> None:
    game = position()
    for seat in (0, 1):
        guarded = _ViewsOnly(game, (seat,))
        assert board_of(guarded, seat) == board_of(game, seat)
        assert render_html(guarded, seat) == render_html(game, seat)
        assert np.array_equal(render_rgb(guarded, seat), render_rgb(game, seat))
    guarded = _ViewsOnly(game, (0, 1))
    assert board_of(guarded, SPECTATOR) == board_of(game, SPECTATOR)


def test_a_bad_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="seat must be 0, 1, 'spectator' or None"):
        board_of(position(), 2)
    with pytest.raises(ValueError, match="seat must be"):
        board_of(position(), "opponent")


def test_text_board_draws_the_same_model() -> None:
    game = position()
    text = render_text(game, SPECTATOR, actions=True)
    assert "spectator, public cards only" in text
    for name in [*SECRET_HAND, SECRET_BACK, SECRET_LAYING, SECRET_DAMAGE, *A_SECRETS]:
        assert name not in text, name
    assert "b0 face-down" in text and "hand: 2 cards" in text and "legal:" not in text


def test_a_search_shows_its_list_to_the_searcher_only() -> None:
    """41.3.1: while A searches its deck, A's board lists the cards ``card d<i>`` picks from; B's
    and the spectator's boards show only that A decides."""
    from hostwcg_env.scenarios import run_line

    deck = ["Ogre", "Herald", "Wall", "Squire"]  # Herald and Squire are Human Entities
    g = setup_game({"setup": {"turn": 1, "phase": "action1",
                              "A": {"hand": ["Tutor"], "pool": {"&": 1}, "deck": deck}}}, "<test>")
    for line in ["A play Tutor", "resolve", "A slot b0", "A pass", "B pass"]:
        run_line(g, line)
    mine = board_of(g, 0)
    assert mine.decision is not None and mine.decision.kind == "choose_card"
    assert [(c.place, c.name) for c in mine.decision.cards] == [("d0", "Herald"), ("d1", "Squire")]
    words = _text(render_html(g, 0))
    assert "choosing from (2)" in words and "d0 Herald" in words and "card d1" in words
    for seat in (1, SPECTATOR):
        b = board_of(g, seat)
        assert b.decision is not None and b.decision.cards == () and b.decision.actions == ()
        html = render_html(g, seat)
        assert "choosing from" not in html and "Herald" not in html and "Squire" not in html
    from dataclasses import replace

    without = replace(mine, decision=replace(mine.decision, cards=()))
    assert not np.array_equal(board_image(mine), board_image(without))


# ============================================================================ HTML


class _Tags(HTMLParser):
    VOID = {"br", "meta", "img", "hr", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.bad: list[str] = []
        self.seen: list[tuple[str, dict[str, str | None]]] = []
        self.data: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.seen.append((tag, dict(attrs)))
        self.in_style = tag == "style"
        if tag == "div":
            self.data.append("\n")
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_data(self, data: str) -> None:
        if not self.in_style:
            self.data.append(data)

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False
        if not self.open or self.open[-1] != tag:
            self.bad.append(tag)
        else:
            self.open.pop()


def _parse(html: str) -> _Tags:
    p = _Tags()
    p.feed(html)
    p.close()
    assert not p.bad and not p.open, (p.bad, p.open)
    return p


def _text(html: str) -> str:
    """The words a reader sees (tags dropped, entities decoded, a line per block)."""
    return re.sub(r"[ \t]+", " ", "".join(_parse(html).data))


def _places(tags: _Tags) -> list[str]:
    return [a["data-place"] or "" for _t, a in tags.seen if "data-place" in a]


def test_html_board_draws_every_zone_for_the_player() -> None:
    html = render_html(position(), 0)
    tags = _parse(html)
    places = _places(tags)
    words = _text(html)
    for side in "AB":  # every slot, empty ones included
        assert [p for p in places if re.fullmatch(f"{side}\\.f\\d", p)] == [f"{side}.f{i}" for i in range(5)]
        assert [p for p in places if re.fullmatch(f"{side}\\.b\\d", p)] == [f"{side}.b{i}" for i in range(4)]
    assert "A.h0" in places and "A.h1" in places and "A.form0" in places
    for text in ["A to decide:", "priority", "B hand: 2 cards, hidden", "A hand: 2 cards", "backrow",
                 "frontrow", "forms", "damage zone", "deck", "drop", "top: Spark", "banished",
                 "action points", "Test Host", "Strife Host", "stack (2, top first)", "Blast",
                 "t: B.host", "face-down card", "+ Iron Blade", "owner B", "sick", "A's view",
                 "Raider", "Watchtower", "Wall", "\u2694\u20095", "\u2665\u20091/2"]:
        assert text in words, text
    assert words.index("stack1") < words.index("stack0")  # top first
    assert "class='hwb-act'" in html and ">pass<" in html  # the viewer's legal actions
    for name in [*SECRET_HAND, SECRET_BACK, SECRET_LAYING, SECRET_DAMAGE, SECRET_DECK]:
        assert name not in html, name


def test_html_board_of_the_opponent_and_the_spectator() -> None:
    game = position()
    theirs = render_html(game, 1)
    assert "class='hwb-act'" not in theirs and "A hand: 2 cards, hidden" in _text(theirs)
    for name in ["Squire, Ogre", *A_SECRETS]:
        assert name not in theirs, name
    spec = render_html(game, SPECTATOR)
    _parse(spec)
    assert "spectator, public cards only" in _text(spec) and "class='hwb-act'" not in spec
    for name in [*SECRET_HAND, SECRET_BACK, SECRET_LAYING, SECRET_DAMAGE, *A_SECRETS]:
        assert name not in spec, name
    assert spec.count("hwb-back") >= 2 and "B hand: 2 cards, hidden" in _text(spec)


def test_html_is_self_contained_and_escaped() -> None:
    html = render_html(position(), 0)
    for needle in ["<script", "http://", "https://", "src=", "url(", "@import", "<link"]:
        assert needle not in html.lower(), needle
    assert html.count("<style>") == 1
    # text from the game is escaped: a prompt with markup stays text
    b = board_of(position(), 0)
    from dataclasses import replace

    assert b.decision is not None
    evil = replace(b, decision=replace(b.decision, prompt="<b onclick=x>&"))
    out = board_html(evil)
    assert "<b onclick" not in out and "&lt;b onclick=x&gt;&amp;" in out


def _luminance(color: str) -> float:
    def ch(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    c = color.lstrip("#")
    r, g, b = (int(c[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("theme", sorted(PALETTES))
def test_both_palettes_are_readable(theme: str) -> None:
    """The board carries its own colours in light and dark notebooks: text on every surface
    passes WCAG contrast (7:1 for text, 4.5:1 for muted text and card backs, 3:1 for the
    player and damage colours and the damaged-health badge)."""
    p = PALETTES[theme]
    for surface in ("bg", "panel", "card", "mine"):
        assert _contrast(p["fg"], p[surface]) >= 7, (theme, surface)
        assert _contrast(p["muted"], p[surface]) >= 4.5 if surface != "mine" else True, (theme, surface)
    for surface in ("bg", "panel", "card"):
        for who in ("a", "b", "dmg"):
            assert _contrast(p[who], p[surface]) >= 3, (theme, who, surface)
    assert _contrast(p["backfg"], p["back1"]) >= 4.5
    assert _contrast("#ffffff", p["hurt"]) >= 4.5  # a damaged Entity's health


def test_html_follows_the_notebook_theme() -> None:
    html = render_html(position(), 0)
    assert "prefers-color-scheme:dark" in html and "data-jp-theme-light=false" in html
    assert PALETTES["light"]["bg"] in html and PALETTES["dark"]["bg"] in html
    forced = board_html(board_of(position(), 0), theme="dark")
    assert "class='hwb hwb-dark'" in forced


# ============================================================================ the image


def test_image_is_a_board_of_the_documented_size() -> None:
    game = position()
    img = render_rgb(game, 0)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[:2] == frame_size(5, 4)
    assert img.shape[0] % 16 == 0 and img.shape[1] % 16 == 0
    packed = (img[..., 0].astype(np.int32) << 16) | (img[..., 1].astype(np.int32) << 8) | img[..., 2]
    assert len(np.unique(packed)) > 100  # a picture, not a blank

    def count(color: str) -> int:
        return int((packed == int(color[1:], 16)).sum())

    assert count(PALETTES["light"]["bg"]) > img.shape[0] * img.shape[1] // 10
    for sym in ("&", "£"):  # the resource colours of the cards on the table
        assert count(RES_COLORS[sym]) > 50, sym
    dark = board_image(board_of(game, 0), "dark")
    assert dark.shape == img.shape and not np.array_equal(dark, img)
    with pytest.raises(ValueError, match="theme must be one of"):
        board_image(board_of(game, 0), "sepia")


def test_image_slots_show_cards_and_the_opponent_seat_differs_only_where_it_may_see() -> None:
    """Each slot's pixels: a card both seats see is drawn identically from both seats (B.f2,
    A.f0, A.b1, the empty slots); a face-down card is a back from the opponent's seat and its
    face from its controller's."""
    game = position()
    img0, boxes0 = draw_board(board_of(game, 0))
    img1, boxes1 = draw_board(board_of(game, 1))
    a0, a1 = np.asarray(img0), np.asarray(img1)
    assert a0.shape == a1.shape and not np.array_equal(a0, a1)

    def crop(a: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
        x, y, w, h = box
        return a[y:y + h, x:x + w]

    rows = [f"{s}.{r}{i}" for s in "AB" for r, n in (("f", 5), ("b", 4)) for i in range(n)]
    hidden = {"A.b0", "B.b0"}  # face down: each seen by its controller only
    for place in rows:
        same = np.array_equal(crop(a0, boxes0[place]), crop(a1, boxes1[place]))
        assert same == (place not in hidden), place
    assert boxes0["A.f0"][1] > boxes0["B.f0"][1] and boxes1["A.f0"][1] < boxes1["B.f0"][1]  # own side below
    back = crop(a0, boxes0["B.b0"])  # a card back: the back colours, no face
    back_rgb = tuple(int(PALETTES["light"]["back1"][i:i + 2], 16) for i in (1, 3, 5))
    assert (np.abs(back.astype(int) - back_rgb).sum(axis=2) == 0).mean() > 0.2
    assert set(boxes0) >= {"A.h0", "A.h1", "A.form0"} and "B.h0" not in boxes0


def test_the_image_size_depends_on_the_table_and_not_the_position() -> None:
    sizes = {render_rgb(g, 0).shape for g in _states(n_games=2, every=60)}
    assert sizes == {(*frame_size(5, 4), 3)}
    assert render_rgb(position(), None).shape[:2] == frame_size(5, 4, top_hand_shown=True)


# ============================================================================ hidden information


@pytest.mark.slow
def test_resampling_hidden_cards_changes_no_board_html_or_image() -> None:
    """What a seat may not see (the opponent's hand, both decks, the opponent's face-down cards
    and damage zone) is resampled from its own view: its board, HTML and image stay the same.
    The spectator's board stays the same whichever player's view the hidden cards are
    resampled from. (The HTML and the image are drawn from the board alone; they are compared
    on every fourth state, the board on all of them.)"""
    states = [position(), *(g for g in _states(n_games=6, every=13, seed0=200))]
    checked = changed = 0
    face_down = [0, 0]
    for k, g in enumerate(states):
        for p in (0, 1):
            face_down[p] += any(c is not None and c.face_down for c in board_of(g, None).sides[p].back)
            g2 = Game(determinize(g.view(p), random.Random(k)))
            for seat in (p, SPECTATOR):
                assert board_of(g2, seat) == board_of(g, seat), f"{seat}'s board depends on hidden cards"
                if k % 4 == 0:
                    assert render_html(g2, seat) == render_html(g, seat), "the HTML depends on hidden cards"
                    assert np.array_equal(render_rgb(g2, seat), render_rgb(g, seat)), \
                        "the image depends on hidden cards"
            changed += board_of(g2, None) != board_of(g, None)  # the resampling is not vacuous
            checked += 1
    assert checked >= 80 and changed > checked // 2
    assert min(face_down) >= 5, face_down  # face-down cards on both sides were resampled


# ============================================================================ the env


def test_env_renders_rgb_array_and_html_through_the_wrappers() -> None:
    e = hostwcg_v0.env(render_mode="rgb_array")
    assert "rgb_array" in e.metadata["render_modes"] and e.metadata["render_fps"] == RENDER_FPS
    e.reset(seed=3)
    frame = e.render()
    assert isinstance(frame, np.ndarray) and frame.shape == (*frame_size(5, 4), 3)
    raw = e.unwrapped
    assert np.array_equal(frame, render_rgb(raw.game, 0))  # render_view 0 by default
    html = e._repr_html_()  # PettingZoo's wrappers refused private names (AttributeError)
    assert html == render_html(raw.game, 0) and "<div class='hwb'" in html
    spec = hostwcg_v0.raw_env(render_mode="rgb_array", render_view="spectator")
    spec.reset(seed=3)
    assert np.array_equal(spec.render(), render_rgb(spec.game, SPECTATOR))
    assert spec._repr_html_() == render_html(spec.game, SPECTATOR)
    par = hostwcg_v0.parallel_env(render_mode="rgb_array")
    par.reset(seed=3)
    assert np.array_equal(par.render(), frame) and par._repr_html_() == html


def test_env_refuses_an_unknown_render_mode() -> None:
    with pytest.raises(ValueError, match="render_mode must be one of"):
        hostwcg_v0.raw_env(render_mode="rgb")


def test_rgb_array_without_pillow_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.delitem(sys.modules, "hostwcg_env.board.image", raising=False)
    with pytest.raises(ImportError, match=r"hostwcg\[render\]"):
        hostwcg_v0.raw_env(render_mode="rgb_array")
    hostwcg_v0.raw_env(render_mode="ansi")  # the other modes need no Pillow


def _play(env: gym.Env, steps: int) -> None:
    for _ in range(steps):
        mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        _obs, _r, term, trunc, _info = env.step(int(np.flatnonzero(mask)[0]))
        if term or trunc:
            break


def test_single_agent_frames_collected_over_an_episode() -> None:
    """gymnasium's RenderCollection: one frame per reset and step, all the same shape, the
    board changing as the game goes, each drawn from the learner's seat."""
    single = SingleAgentEnv(seed=0, render_mode="rgb_array")
    env = gym.wrappers.RenderCollection(single)
    _obs, info = env.reset(seed=5)
    seat = ["player_0", "player_1"].index(info["seat"])
    assert single.aec.render_view == seat
    _play(env, 12)
    last = render_rgb(single.aec.game, seat)
    frames = env.render()
    assert len(frames) >= 2
    assert {f.shape for f in frames} == {(*frame_size(5, 4), 3)} and all(f.dtype == np.uint8 for f in frames)
    assert sum(not np.array_equal(a, b) for a, b in zip(frames, frames[1:], strict=False)) >= len(frames) // 2
    assert np.array_equal(frames[-1], last)
    assert single._repr_html_() == render_html(single.aec.game, seat)


def test_single_agent_env_passes_gymnasiums_checker_with_rgb_array() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(SingleAgentEnv(seed=0, render_mode="rgb_array"), skip_render_check=False)


def test_record_video_takes_the_frames(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """gymnasium's RecordVideo over SingleAgentEnv. MoviePy (and its ffmpeg) is not a
    dependency: a stand-in ImageSequenceClip receives what RecordVideo would encode."""
    clips: list[Any] = []

    class Clip:
        def __init__(self, frames: list[np.ndarray], fps: float) -> None:
            self.frames, self.fps = list(frames), fps
            clips.append(self)

        def write_videofile(self, path: str, logger: Any = None) -> None:
            self.path = path

    modules = {"moviepy": types.ModuleType("moviepy"), "moviepy.video": types.ModuleType("moviepy.video"),
               "moviepy.video.io": types.ModuleType("moviepy.video.io"),
               "moviepy.video.io.ImageSequenceClip": types.ModuleType("moviepy.video.io.ImageSequenceClip")}
    modules["moviepy.video.io.ImageSequenceClip"].ImageSequenceClip = Clip  # type: ignore[attr-defined]
    for name, mod in modules.items():
        monkeypatch.setitem(sys.modules, name, mod)
    env = gym.wrappers.RecordVideo(SingleAgentEnv(seed=0, render_mode="rgb_array"), str(tmp_path),
                                   episode_trigger=lambda k: True, disable_logger=True)
    env.reset(seed=2)
    for _ in range(400):
        mask = env.unwrapped.action_masks()  # type: ignore[attr-defined]
        _o, _r, term, trunc, _i = env.step(int(np.flatnonzero(mask)[0]))
        if term or trunc:
            break
    assert term or trunc
    env.close()
    assert len(clips) == 1 and clips[0].fps == RENDER_FPS and clips[0].path.endswith(".mp4")
    frames = clips[0].frames
    assert len(frames) > 3 and {f.shape for f in frames} == {(*frame_size(5, 4), 3)}
    assert not np.array_equal(frames[0], frames[-1])
