"""Real decks by default, and one way to name a deck everywhere.

The env, the single-agent view, ``demo`` and ``play`` draw each seat's deck from the eight
preconstructed decks (seeded); the stand-in test decks are used only when asked for. Every
command and function that takes a deck reads a short name (``karsh``), an id
(``karsh_ember_tide``) or a path through one resolver (``hostwcg_env.cards.deck_path``), and a
typo gets the closest names.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hostwcg_env import hostwcg_v0
from hostwcg_env.cards import DeckError, deck_path, load_deck, resolve_deck, short_name
from hostwcg_env.cards.decks import DECKS_DIR, deck_files, pool_decks
from hostwcg_env.cli import main
from hostwcg_env.demo import load_decks, run_demo
from hostwcg_env.env import shipped_decks
from hostwcg_env.env.single import SingleAgentEnv

ROOT = Path(__file__).resolve().parent.parent
PRECON = sorted(p.stem for p in DECKS_DIR.glob("*.toml") if not p.stem.startswith("test_"))
TEST_HOSTS = {"Test Host", "Strife Host"}


def hosts(game: Any) -> tuple[str, str]:
    s = game.state
    return s.objs[s.players[0].host].card.name, s.objs[s.players[1].host].card.name


# ------------------------------------------------------------------ the playable decks


def test_shipped_decks_are_the_eight_preconstructed_decks() -> None:
    decks = shipped_decks()
    assert len(PRECON) == 8
    assert [d.name for d in decks] == [load_deck(DECKS_DIR / f"{i}.toml").name for i in PRECON]
    assert not {d.host for d in decks} & TEST_HOSTS
    with_tests = shipped_decks(include_test=True)
    assert len(with_tests) == 10 and {d.host for d in with_tests} >= TEST_HOSTS


def test_env_draws_a_preconstructed_deck_per_seat_each_episode() -> None:
    e = hostwcg_v0.raw_env()
    seen: list[tuple[str, str]] = []
    for seed in range(24):
        e.reset(seed=seed)
        seen.append(hosts(e.game))
    precon_hosts = {d.host for d in shipped_decks()}
    assert all(h in precon_hosts for pair in seen for h in pair)
    assert len({a for a, _ in seen}) >= 5 and len({b for _, b in seen}) >= 5  # both seats vary
    # unseeded resets go on drawing from the env's RNG
    e.reset(seed=0)
    more = set()
    for _ in range(12):
        e.reset()
        more.add(hosts(e.game))
    assert len(more) > 3


def test_same_seed_same_decks_and_same_game() -> None:
    def play(seed: int) -> tuple[tuple[str, str], list[Any]]:
        e = hostwcg_v0.env()
        e.reset(seed=seed)
        out: list[Any] = []
        rng = np.random.default_rng(0)
        for agent in e.agent_iter(max_iter=300):
            obs, reward, term, trunc, _ = e.last()
            out.append((agent, reward, obs["observation"].sum()))
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        return hosts(e.unwrapped.game), out

    a, b = play(11), play(11)
    assert a[0] == b[0] and a[1] == b[1]
    assert play(12)[0] != a[0] or play(12)[1] != a[1]


def test_test_decks_only_when_asked() -> None:
    e = hostwcg_v0.raw_env(decks="test")
    e.reset(seed=3)
    assert hosts(e.game) == ("Test Host", "Strife Host")
    # "test" is exactly the 0.1.0 default: the same games as passing the two test decks
    f = hostwcg_v0.raw_env(decks=[DECKS_DIR / "test_authority.toml", DECKS_DIR / "test_strife.toml"])
    f.reset(seed=3)
    assert [str(x) for x in e.game.legal_actions()] == [str(x) for x in f.game.legal_actions()]
    assert e.game.state.players[0].hand == f.game.state.players[0].hand


def test_env_takes_deck_names_and_paths() -> None:
    e = hostwcg_v0.raw_env(decks=["karsh", "brae_deep_roots"])
    e.reset(seed=0)
    assert hosts(e.game) == ("Karsh, the Ember Tyrant", "Mother Brae of the Grove")
    e = hostwcg_v0.raw_env(deck_pools=[["lior"], [str(DECKS_DIR / "osric_shield_wall.toml"), "sable"]])
    e.reset(seed=0)
    assert hosts(e.game)[0] == "Lior, the Weeping Poet"


def test_single_agent_env_plays_the_preconstructed_decks() -> None:
    env = SingleAgentEnv(opponent="random", seed=0)
    seen = set()
    for seed in range(8):
        env.reset(seed=seed)
        seen.update(hosts(env.aec.game))
    assert not seen & TEST_HOSTS and len(seen) >= 4


# ------------------------------------------------------------------ one resolver


@pytest.mark.parametrize("name", ["karsh", "karsh_ember_tide", "KARSH", "ember", "ember tide", "kar",
                                  str(DECKS_DIR / "karsh_ember_tide.toml")])
def test_every_name_of_a_deck_reads_the_same_file(name: str) -> None:
    assert deck_path(name).resolve() == (DECKS_DIR / "karsh_ember_tide.toml").resolve()
    assert load_deck(name) == load_deck(DECKS_DIR / "karsh_ember_tide.toml")
    assert resolve_deck(name)[0] == "karsh_ember_tide"


def test_short_names_are_unique_and_name_their_deck() -> None:
    shorts = [short_name(i) for i in PRECON]
    assert shorts == ["brae", "karsh", "lior", "mirela", "osric", "sable", "tamsin", "verena"]
    assert short_name("test_strife") == "test_strife"
    assert short_name("karsh_ember_tide.toml") == "karsh" and short_name("my_own_deck") == "my_own_deck"
    for i in deck_files():
        assert deck_path(short_name(i)).stem == i


def test_docs_table_of_deck_names_matches_the_files() -> None:
    text = (ROOT / "docs" / "cards.md").read_text()
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| ([^|]+) \|$", text, re.M)
    assert [(s, i) for s, i, _ in rows] == [(short_name(i), i) for i in PRECON]
    for _, i, host in rows:
        assert load_deck(i).host == host.strip()


@pytest.mark.parametrize(("name", "needle"), [
    ("krash", "did you mean 'karsh'"),
    ("osrik", "did you mean 'osric'"),
    ("brae_deep_rots", "did you mean 'brae'"),
    ("test", "ambiguous: it could be test_authority, test_strife"),
    ("zzz", "no such deck; the decks: brae, karsh, lior"),
])
def test_an_unknown_deck_name_gets_the_closest_names(name: str, needle: str) -> None:
    with pytest.raises(DeckError, match=re.escape(needle)):
        load_deck(name)


def test_a_missing_file_is_still_a_file_error(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="cannot read the file"):
        load_deck(tmp_path / "nope.toml")
    with pytest.raises(DeckError, match="cannot read the file"):
        load_deck("nope.toml")


def test_pool_decks_default_leaves_out_the_test_decks() -> None:
    assert list(pool_decks()) == PRECON
    assert set(pool_decks(include_test=True)) == set(PRECON) | {"test_authority", "test_strife"}


# ------------------------------------------------------------------ demo, play, balance, deck check


def test_demo_draws_preconstructed_decks_from_the_seed() -> None:
    a = load_decks(None, seed=5)
    assert a == load_decks(None, seed=5)
    assert {d.host for d in a} <= {d.host for d in shipped_decks()}
    pairs = {tuple(d.name for d in load_decks(None, seed=s)) for s in range(12)}
    assert len(pairs) > 4
    assert [d.host for d in load_decks("test")] == ["Test Host", "Strife Host"]
    one = load_decks(["verena"], seed=5)
    assert one[0].host == "Verena, High Justiciar" and one[1] == a[1]


def test_cli_demo_takes_every_deck_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--decks", "karsh", "brae_deep_roots", "--seed", "1", "--quiet"]) == 0
    assert main(["demo", "--decks", str(DECKS_DIR / "lior_borrowed_crowns.toml"), "sable", "--quiet"]) == 0
    capsys.readouterr()
    lines: list[str] = []
    game = run_demo(seed=1, decks=["karsh", "brae"], out=lines.append)
    assert hosts(game) == ("Karsh, the Ember Tyrant", "Mother Brae of the Grove")
    assert lines[0].startswith("A: Ember Tide (Karsh, the Ember Tyrant, random)")


@pytest.mark.parametrize("command", [["demo", "--quiet"], ["play"]])
def test_cli_deck_typo_is_one_line_with_did_you_mean(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*command, "--decks", "krash", "brae"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "'krash': no such deck (did you mean 'karsh'?)" in err


def test_cli_deck_check_and_balance_take_short_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "check", "karsh", "verena_iron_law"]) == 0
    assert "ok karsh: Ember Tide" in capsys.readouterr().out
    from hostwcg_env.analysis.simulate import resolve_decks

    refs = resolve_decks(["karsh", "brae_deep_roots", str(DECKS_DIR / "lior_borrowed_crowns.toml")])
    assert [r.id for r in refs] == ["karsh_ember_tide", "brae_deep_roots", "lior_borrowed_crowns"]
    with pytest.raises(ValueError, match="did you mean 'karsh'"):
        resolve_decks(["krash"])
