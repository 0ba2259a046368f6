"""Playing in the terminal (``hostwcg play``): forced decisions are taken and said, every
opponent action is told as ``demo`` tells it, the hand shows costs and stats, ``show``,
``hand``, ``board`` and ``help`` work, a typo gets the closest legal actions (in the player's
own words, no internal prefixes), and a whole game plays through the real terminal program.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import hostwcg_env.play as play_mod
from hostwcg_env.engine import Game
from hostwcg_env.engine.events import Attacks, Draw, Played, TurnBegan, WouldPlay
from hostwcg_env.play import forced, play_terminal

ROOT = Path(__file__).resolve().parent.parent
QUESTION = re.compile(r"^[A-Z][^\n]* \[(?:setup|turn \d+, [^\]]+)\]", re.M)
LISTED = re.compile(r"^ +(\d+)  \S", re.M)


class Session:
    """A scripted player: answers from ``script`` first, then a seeded random listed number;
    keeps everything printed, the text printed before each question, and the game."""

    def __init__(self, script: list[str] | None = None, seed: int = 0, after: str = "") -> None:
        self.script = list(script or [])
        self.after = after  # the script starts once this has been printed
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.questions: list[str] = []  # what was printed since the previous answer
        self.mark = 0
        self.game: Game | None = None

    def out(self, x: object) -> None:
        self.lines.append(str(x))

    def read(self, prompt: str) -> str:
        block = "\n".join(self.lines[self.mark:])
        self.mark = len(self.lines)
        self.questions.append(block)
        if self.script and (not self.after or self.after in self.text):
            return self.script.pop(0)
        listed = [int(n) for n in LISTED.findall(block)] or [1]
        return str(self.rng.choice(listed))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def run(monkeypatch: pytest.MonkeyPatch, session: Session, **kw: Any) -> Session:
    real_rules: Callable[..., Any] = play_mod.default_ruleset

    class Capture:
        """The ruleset play_terminal makes, keeping the game it starts."""

        def __init__(self, *a: Any, **k: Any) -> None:
            self.rules = real_rules(*a, **k)

        def new_game(self, *a: Any, **k: Any) -> Game:
            session.game = self.rules.new_game(*a, **k)
            return session.game

    monkeypatch.setattr(play_mod, "default_ruleset", Capture)
    kw.setdefault("vs", "random")
    assert play_terminal(read=session.read, out=session.out, **kw) == 0
    return session


def test_a_whole_game_with_forced_answers_taken_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run(monkeypatch, Session(seed=1), seed=4)
    g = s.game
    assert g is not None and g.is_over and "Result: " in s.text
    assert "(your only choice, taken for you: " in s.text
    has_forced_action = hasattr(g, "forced_action")
    for block in s.questions:  # every question offers a real choice
        listed = LISTED.findall(block)
        if not listed:
            continue
        if len(listed) == 1:  # only where the engine says it is not forced on public grounds
            assert has_forced_action and "(Enter: " in block
        else:
            assert len(listed) >= 2


def test_every_opponent_action_is_told_as_demo_tells_it(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run(monkeypatch, Session(seed=2), seed=6, vs="heuristic")
    g = s.game
    assert g is not None
    # each of the opponent's turns is told in the demo's compact phrases, from A's view
    starts = [i for i, e in enumerate(g.events) if isinstance(e, TurnBegan)] + [len(g.events)]
    told_turns = 0
    for a, b in zip(starts, starts[1:], strict=False):
        turn = g.events[a]
        if not isinstance(turn, TurnBegan) or turn.player != 1:
            continue
        seen = [e.redact(0) for e in g.events[a + 1:b]]
        # told in demo's compact phrases, in chunks around A's questions (A may be asked in
        # the middle of B's turn, which merges events differently): every card B plays and
        # every attack it makes is told, by the card's whole name
        told = " ".join(s.text.split())
        phrases = []
        for e in seen:
            if isinstance(e, Played) and e.player == 1 and e.name != "?":
                phrases.append(f"B plays {e.name}")
            elif isinstance(e, Attacks) and e.player == 1:
                phrases.append(f"B's {e.name} attacks")
        for phrase in phrases:
            assert phrase in told, phrase
        told_turns += bool(phrases)
    assert told_turns >= 3
    assert re.search(r"B plays [^;\n]+", s.text) and "B's turn (your opponent)" in s.text
    # nothing hidden from A is told: B's hand draws are 'a card'
    hidden = [str(e) for e in g.events if isinstance(e, Draw) and e.player == 1]
    assert hidden and all(t not in s.text for t in hidden)


def test_commands_help_hand_board_show(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run(monkeypatch, Session(["help", "hand", "board", "show h0", "show Grace, Aligner of Stars",
                                  "show grace aligner", "show B.b3", "show", "log", "list", "concede"],
                             after="=== Turn 1"), seed=5)
    text = s.text
    assert "Commands:" in text and "show CARD" in text
    hand = re.search(r"Your hand \((\d+)\): cost in (.*)\n((?:  h\d+ .*\n?)+)", text)
    assert hand is not None
    rows = hand.group(3).splitlines()
    assert len(rows) == int(hand.group(1)) >= 4
    for row in rows:  # name, type, cost, stats
        assert re.match(r"  h\d+ +\S.* +(entity|sorcery|form|ambush) +[&£!%$-]+ +(H\d+/P\d+)?", row), row
    first = re.match(r"  h0 +(.+?)  ", rows[0])
    assert first is not None
    assert f"\n{first.group(1)}\n  type:       " in text  # show h0: the card sheet
    # the full name, and words of it: the one lookup of 'hostwcg cards show' (cards/lookup.py)
    assert text.count("Grace, Aligner of Stars\n  type:       Entity") == 2
    assert "nothing you can see at 'B.b3'" in text and "show what?" in text
    assert text.count("HOST WCG") >= 2  # the board, and again on 'board'
    assert "A conceded (rule 35.3.5)" in text and "You lose." in text


def test_a_typo_gets_the_closest_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run(monkeypatch, Session(["pas", "0", "99", "concede"]), seed=3)
    text = s.text
    assert "'pas' is not a legal action now; did you mean: pass?" in text
    assert "A pas" not in text and "cannot read action" not in text
    assert "there is no action 0" in text and "there is no action 99" in text


class ByName(Session):
    """Takes resources from its Host until a card can be played, then plays it by name."""

    def read(self, prompt: str) -> str:
        block = "\n".join(self.lines[self.mark:])
        self.mark = len(self.lines)
        if self.script:
            return self.script.pop(0)
        m = re.search(r"^ +\d+  play h\d+  \(([^,)]+)", block, re.M)
        if m:
            self.script = ["concede"]
            return f"play {m.group(1)}"
        host = re.search(r"^ +(\d+)  ap host", block, re.M)
        listed = LISTED.findall(block) or ["1"]
        return host.group(1) if host else listed[0]


def test_cards_are_named_in_the_list_and_a_name_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    s = run(monkeypatch, ByName(), seed=8)
    g = s.game
    assert g is not None
    assert re.search(r"^ +\d+  play h\d+  \([^,]+, [&£!%$]+", s.text, re.M), "the list names the card and its cost"
    played = [e for e in g.events if isinstance(e, WouldPlay) and e.player == 0]
    assert played, "the card named was played"


def test_forced_is_the_only_legal_action_whatever_the_reason() -> None:
    """In the terminal a decision with one legal action is taken without asking, also where the
    env must ask because the player's hidden cards could have answered (``forced_action``):
    the agent never sees who was asked, and the human is told events, not the agent's stops."""
    from hostwcg_env.cards import default_ruleset
    from hostwcg_env.demo import load_decks

    g = default_ruleset().new_game(*load_decks(None, 1), seed=1)
    seen_not_public = 0
    for _ in range(400):
        if g.is_over:
            break
        legal = g.legal_actions()
        assert forced(g) == (legal[0] if len(legal) == 1 else None)
        seen_not_public += len(legal) == 1 and g.forced_action() is None
        g.apply(legal[-1])
    assert seen_not_public  # such decisions came up, and were taken


@pytest.mark.slow
def test_a_whole_game_through_the_real_terminal_program() -> None:
    """``python -m hostwcg_env play --vs random --seed N`` in a pseudo-terminal, answered
    prompt by prompt (numbers, commands, a typo) until the game ends."""
    pexpect = pytest.importorskip("pexpect")
    import os

    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    child = pexpect.spawn(sys.executable, ["-m", "hostwcg_env", "play", "--vs", "random", "--seed", "9",
                                           "--color", "never"],
                          cwd=str(ROOT), env=env, encoding="utf-8", timeout=60)
    rng = random.Random(9)
    extras = ["help", "hand", "show h0", "board", "pas"]
    seen = ""
    prompts = 0
    while True:
        i = child.expect([r"(?:^|\n)[AB]> ", pexpect.EOF])
        seen += child.before + (child.after if i == 0 else "")
        if i == 1:
            break
        prompts += 1
        assert prompts < 3000, "the game does not end"
        if extras and prompts % 3 == 0:
            child.sendline(extras.pop(0))
            continue
        listed = [int(n) for n in LISTED.findall(child.before.replace("\r\n", "\n"))] or [1]
        child.sendline(str(rng.choice(listed)))
    child.close()
    text = seen.replace("\r\n", "\n")
    assert child.exitstatus == 0, text[-2000:]
    assert "Result: " in text and ("You win." in text or "You lose." in text or "A draw." in text)
    assert "Commands:" in text and "Your hand (" in text and "did you mean: pass?" in text
    assert "=== Turn 2:" in text and prompts > 10


def test_each_question_shows_the_action_points_and_pool_your_actions_left() -> None:
    """After an action of your own (two action points turned into a resource: ``ap any &``),
    the next question says what is left: two action points (#) fewer, the resource in the pool."""
    lines: list[str] = []
    asked: list[str] = []
    mark = [0]

    def read(prompt: str) -> str:
        block = "\n".join(lines[mark[0]:])
        mark[0] = len(lines)
        asked.append(block)
        if len(asked) > 1 and "ap any &" in asked[-2] and "your turn" in "\n".join(lines):
            return "concede"  # the question after the action: seen
        if "ap any &" in block and "your turn" in "\n".join(lines):
            return "ap any &"
        return "1"

    play_terminal(vs="random", seat=0, seed=2, read=read, out=lines.append)
    status = [re.search(r"you: (\d+) action points \(#\) \| pool (.+)", q) for q in asked]
    assert all(m is not None for m, q in zip(status, asked, strict=True) if "[turn" in q)
    before, after = status[-2], status[-1]
    assert before is not None and after is not None and "(2 AP: +1&)" in asked[-2]
    assert int(after.group(1)) == int(before.group(1)) - 2
    assert "&1" in after.group(2) and "&1" not in before.group(2)


def test_help_lists_every_command_and_each_is_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every spelling ``ask`` answers is in 'help', and typed is answered as a command (never
    read as an action: no 'is not a legal action')."""
    words = [w.split()[0] for names, _ in play_mod.COMMANDS for w in names]
    assert {"list", "actions", "hand", "board", "show", "log", "help", "concede", "quit"} <= set(words)
    for names, _ in play_mod.COMMANDS:
        assert re.search(rf"^  {re.escape(names[0])} +\S", play_mod.HELP, flags=re.M), names
        for other in names[1:]:
            assert other in play_mod.HELP
    s = run(monkeypatch, Session([w for w in words if w not in ("concede", "quit", "exit", "show")] + ["show grace"]
                                 + ["concede"], after="=== Turn 1"), seed=5)
    assert "is not a legal action" not in s.text and "Grace, Aligner of Stars\n  type:" in s.text
    assert s.text.count("Commands:") == 3  # help, ? and h
