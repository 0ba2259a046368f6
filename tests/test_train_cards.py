"""A user's own card files in ``hostwcg train`` (docs/training.md, "Your own cards"): the
recipe's ``[cards]`` section, its errors, the hostwcg_v1 card index extended with the new cards
(every shipped id kept), a network that records its cards, and the smoke recipe played with a
new card in every stage."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import numpy as np
import pytest

from agents.training.recipe import RECIPES_DIR, RecipeError, load_recipe

ROOT = Path(__file__).resolve().parents[1]
KARSH = ROOT / "hostwcg_env" / "cards" / "decks" / "karsh_ember_tide.toml"

# three renamed variants of Strife cards with other stats (none is in the shipped pool)
CARDS = """
[[card]]
name = "Ashen Raider"
type = "entity"
subtypes = ["Human", "Assassin"]
cost = "£$"
health = 3
power = 2
[[card.abilities]]
kind = "triggered"
when = { event = "destroys", subject = "self" }
steps = [ { do = "damage", amount = 1, to = "opponent_host" } ]

[[card]]
name = "Cinder Hound"
type = "entity"
subtypes = ["Beast"]
cost = "£"
health = 2
power = 2
"""
MORE = """
[[card]]
name = "Ash Volley"
type = "sorcery"
cost = "£$"
[[card.abilities]]
kind = "spell"
steps = [ { do = "damage", amount = 2, to = "opponent_host" } ]
"""
NEW = ("Ash Volley", "Ashen Raider", "Cinder Hound")


def _deck() -> str:
    """Ember Tide with 11 of its 50 cards swapped for the new ones."""
    text = KARSH.read_text(encoding="utf-8").replace('name = "Ember Tide"', 'name = "Ashen Tide"')
    for old, new in (('"Headhunter" = 4', '"Ashen Raider" = 4'), ('"Bloodhound" = 3', '"Cinder Hound" = 3'),
                     ('"Skull Fire" = 4', '"Ash Volley" = 4')):
        assert old in text
        text = text.replace(old, new)
    return text


def _files(tmp_path: Path, cards: str = CARDS) -> None:
    (tmp_path / "my_cards.toml").write_text(cards, encoding="utf-8")
    (tmp_path / "more").mkdir(exist_ok=True)
    (tmp_path / "more" / "volley.toml").write_text(MORE, encoding="utf-8")
    (tmp_path / "ashen_tide.toml").write_text(_deck(), encoding="utf-8")


RECIPE = """
[recipe]
name = "mine"
seed = 5

[cards]
files = ["my_cards.toml", "more/*.toml"]

[decks]
decks = ["ashen_tide.toml"]

[teacher]
agent = "heuristic"

[[stages]]
kind = "demos"
minutes = 0.05

[[stages]]
kind = "clone"
minutes = 0.05
"""


@pytest.fixture(autouse=True)
def _shipped_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts from the shipped pool, whatever the shell's HOSTWCG_CARDS."""
    monkeypatch.delenv("HOSTWCG_CARDS", raising=False)


def _write(tmp_path: Path, text: str, name: str = "r.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_a_recipes_card_files_join_the_pool_for_its_decks_and_only_within_the_run(tmp_path: Path) -> None:
    from hostwcg_env.cards import default_pool

    _files(tmp_path)
    r = load_recipe(_write(tmp_path, RECIPE))
    assert r.card_files == [str((tmp_path / f).resolve()) for f in ("my_cards.toml", "more/volley.toml")]
    [deck] = r.deck_refs()
    assert deck.id == "ashen_tide" and {"Ashen Raider", "Cinder Hound", "Ash Volley"} <= set(deck.main)
    cards = r.resolved()["cards"]
    assert [Path(c["file"]).name for c in cards] == ["my_cards.toml", "volley.toml"]
    assert all(len(c["sha256"]) == 64 for c in cards)
    with r.pool():
        pool = default_pool()
        assert set(NEW) <= set(pool) and pool["Ashen Raider"].power == 2 and "Headhunter" in pool  # added, not replaced
    assert not set(NEW) & set(default_pool()) and "HOSTWCG_CARDS" not in os.environ
    # without [cards] the same deck is refused by the deck rules, naming the card
    with pytest.raises(RecipeError, match=r"\[decks\] decks: .*UNKNOWN_CARD '(Ashen Raider|Cinder Hound|Ash Volley)'"):
        load_recipe(_write(tmp_path, RECIPE.replace('files = ["my_cards.toml", "more/*.toml"]', "")))


def test_a_recipes_pool_is_its_own_whatever_hostwcg_cards_says(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """``HOSTWCG_CARDS`` adds cards for other commands; a recipe's run plays its ``[cards]`` alone."""
    from hostwcg_env.cards import default_pool

    _files(tmp_path)
    monkeypatch.setenv("HOSTWCG_CARDS", str(tmp_path / "more" / "volley.toml"))
    assert "Ash Volley" in default_pool()
    plain = load_recipe(_write(tmp_path, RECIPE.replace('files = ["my_cards.toml", "more/*.toml"]', "")
                               .replace('["ashen_tide.toml"]', '"preconstructed"'), "plain.toml"))
    with plain.pool():
        assert "Ash Volley" not in default_pool() and "Headhunter" in default_pool()
    mine = load_recipe(_write(tmp_path, RECIPE.replace(', "more/*.toml"', "")
                              .replace('["ashen_tide.toml"]', '"preconstructed"')))
    with mine.pool():
        assert "Ashen Raider" in default_pool() and "Ash Volley" not in default_pool()
    assert "Ash Volley" in default_pool()  # as it was outside


@pytest.mark.parametrize(("cards", "files", "needle"), [
    (CARDS.replace("power = 2\n[[card.abilities]]", "power = -2\n[[card.abilities]]"), None,
     "[cards] files: {d}/my_cards.toml: card 'Ashen Raider': field 'power': must be at least 0, got -2"),
    (CARDS.replace('do = "damage"', 'do = "dammage"'), None,
     "[cards] files: {d}/my_cards.toml: card 'Ashen Raider': field 'abilities[0].steps[0].do': unknown primitive"),
    (CARDS.replace('name = "Cinder Hound"', 'name = "Bloodhound"'), None,
     "[cards] files: {d}/my_cards.toml: card 'Bloodhound': field 'name': duplicate card name 'Bloodhound'"),
    (CARDS, '["nosuch.toml"]', "[cards] files: 'nosuch.toml': no such card file"),
    (CARDS, '["other/*.toml"]', "[cards] files: 'other/*.toml' matches no file"),
    (CARDS, '"my_cards.toml"\nfile = 1', "[cards] file: unknown key (did you mean 'files'?)"),
])
def test_a_bad_card_file_in_a_recipe_is_the_loaders_one_line_error_under_the_cards_section(
        tmp_path: Path, cards: str, files: str | None, needle: str) -> None:
    _files(tmp_path, cards)
    text = RECIPE if files is None else RECIPE.replace('["my_cards.toml", "more/*.toml"]', files)
    path = _write(tmp_path, text)
    with pytest.raises(RecipeError) as e:
        load_recipe(path)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(f"{path}: ")
    assert needle.format(d=tmp_path.resolve()) in msg, msg


def test_the_v1_index_gives_new_cards_ids_after_the_shipped_ones_and_moves_none(tmp_path: Path) -> None:
    from hostwcg_env.cards import card_files
    from hostwcg_env.env.v1 import cards as v1
    from hostwcg_env.env.v1.layout import obs_layout
    from hostwcg_env.env.v1.spaces import observation_space

    _files(tmp_path)
    shipped = {name: v1.card_id(name) for name in v1.CARD_NAMES}
    table = v1.card_table()
    assert v1.card_id("Ashen Raider") == v1.OTHER and table.shape[0] == v1.N_CARD_IDS
    with card_files([tmp_path / "my_cards.toml", tmp_path / "more" / "volley.toml"]) as pool:
        assert v1.sync_index() == v1.N_CARD_IDS + 3 == v1.n_card_ids()
        assert v1.extra_card_names() == NEW  # in name order
        assert [v1.card_id(n) for n in NEW] == [v1.N_CARD_IDS, v1.N_CARD_IDS + 1, v1.N_CARD_IDS + 2]
        assert v1.card_name(v1.N_CARD_IDS + 1) == "Ashen Raider"
        assert {name: v1.card_id(name) for name in v1.CARD_NAMES} == shipped
        bigger = v1.card_table()
        assert bigger.shape == (v1.N_CARD_IDS + 3, table.shape[1])
        assert np.array_equal(bigger[: v1.N_CARD_IDS], table)  # every shipped row as it was
        assert np.array_equal(bigger[v1.card_id("Ashen Raider")], v1.v1_card_vector(pool["Ashen Raider"]))
        space = observation_space(obs_layout(None))
        assert space["card_id"].high.max() == space["action_card"].high.max() == v1.N_CARD_IDS + 2
    assert v1.sync_index() == v1.N_CARD_IDS and v1.card_id("Ashen Raider") == v1.OTHER


def test_a_network_records_its_cards_and_finds_their_rows_in_another_pool(tmp_path: Path) -> None:
    """Weights with rows for the user's cards name them (``index.extra_cards``); played where the
    index differs, each card id is mapped to the network's row of that card, or OTHER."""
    from agents.set_policy import EXTRA_CARDS, NumpySetPolicy, load_weights
    from hostwcg_env.cards.loader import card_files
    from hostwcg_env.env.v1 import cards as v1

    _files(tmp_path)
    w = load_weights(ROOT / "agents" / "checkpoints" / "ppo_hostwcg_v1.npz")
    emb = w["enc.card_emb.weight"]
    assert emb.shape[0] == v1.N_CARD_IDS
    mine = np.stack([np.full(emb.shape[1], 7.0), np.full(emb.shape[1], 9.0)]).astype(np.float32)
    trained = {**w, "enc.card_emb.weight": np.concatenate([emb, mine]),
               EXTRA_CARDS: np.array(["Ashen Raider", "Zeta Card"])}
    np.savez(tmp_path / "net.npz", **trained)
    net = NumpySetPolicy(load_weights(tmp_path / "net.npz"))
    assert net.extra_cards == ("Ashen Raider", "Zeta Card")
    with card_files([tmp_path / "my_cards.toml", tmp_path / "more" / "volley.toml"]):
        v1.sync_index()
        ids = np.array([v1.card_id("Ashen Raider"), v1.card_id("Ash Volley"), v1.card_id("Squire")])
        rows = net._card_table()[ids]
        assert (rows[0] == 7.0).all()  # Ashen Raider's own row, though its id here is another
        assert np.array_equal(rows[1], emb[v1.OTHER])  # a card the network never saw
        assert np.array_equal(rows[2], emb[v1.card_id("Squire")])  # shipped ids are the same everywhere
        # the shipped network (no rows for new cards) reads each new card as OTHER
        assert np.array_equal(NumpySetPolicy(w)._card_table()[ids], emb[[v1.OTHER, v1.OTHER, ids[2]]])
    v1.sync_index()
    assert np.array_equal(net._card_table()[v1.card_id("Squire")], emb[v1.card_id("Squire")])
    shipped = NumpySetPolicy(w)
    assert shipped._card_map() is None  # the shipped network in the shipped pool: no mapping at all


def _records(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_the_smoke_recipe_plays_a_users_cards_in_every_stage(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    pytest.importorskip("tensorboard")
    torch.set_num_threads(1)
    from agents import make_agent
    from agents.set_policy import EXTRA_CARDS, load_weights
    from hostwcg_env.cli import main

    _files(tmp_path)
    text = (RECIPES_DIR / "smoke.toml").read_text(encoding="utf-8")
    assert 'decks = "preconstructed"' in text
    text = text.replace('[decks]\ndecks = "preconstructed"',
                        '[cards]\nfiles = ["my_cards.toml", "more/*.toml"]\n\n[decks]\ndecks = ["ashen_tide.toml"]')
    # worker processes: the teacher's games, their rows and the evaluation's games, two at a time
    text = text.replace("games = 4\nchunk_games = 2", "games = 4\nchunk_games = 2\nworkers = 2")
    text = text.replace("games = 4\nseed = 123", "games = 4\nseed = 123\nworkers = 2")
    assert text.count("workers = 2") == 2
    recipe = _write(tmp_path, text, "mine.toml")
    run = tmp_path / "run"
    assert main(["train", str(recipe), "--run-dir", str(run), "--quiet"]) == 0
    assert "HOSTWCG_CARDS" not in os.environ  # the pool was the run's alone
    stages = ["01_demos", "02_clone", "03_dagger", "04_league", "05_expert-iteration", "06_expert-iteration"]
    state = json.loads((run / "state.json").read_text())
    assert [state["stages"][s]["status"] for s in stages] == ["done"] * len(stages)
    # the kept games: the teacher's, the learning curve's and the evaluation's; all with the new cards dealt
    kept = {"demos": sorted((run / "stages" / "01_demos" / "games").glob("*.jsonl")),
            "curve": sorted((run / "stages" / "04_league" / "curve").glob("*.jsonl")),
            "eval": [run / "eval" / "vs_random.jsonl"]}
    played: dict[str, set[str]] = {}
    pools = set()
    for part, paths in kept.items():
        assert paths, part
        for rec in (r for p in paths for r in _records(p)):
            assert all(d["id"] == "ashen_tide" for d in rec["decks"])
            pools.add(rec["pool"])
            for seat, c in enumerate(rec["cards"]):
                played.setdefault(rec["agents"][seat], set()).update(set(c["played"]) & set(NEW))
    assert set().union(*played.values()), "no new card was played in the kept games"
    assert len(pools) == 1  # every game names the same card data (shipped + the user's files)
    # the network has rows for the new cards and names them; it plays outside the pool too
    w = load_weights(run / "policy.npz")
    assert tuple(w[EXTRA_CARDS]) == NEW
    make_agent(f"ppo_v1:{run / 'policy.npz'}")
    # the saved MaskablePPO models record them too, and are refused where the pool adds other cards
    from sb3_contrib import MaskablePPO

    league_zip = run / "stages" / "04_league" / "model.zip"
    with load_recipe(recipe).pool():
        assert MaskablePPO.load(league_zip, device="cpu").policy_kwargs["extra_cards"] == list(NEW)
    with pytest.raises(ValueError, match="trained with the cards .*Ashen Raider.* but the pool now adds"):
        MaskablePPO.load(league_zip, device="cpu")
    cfg = json.loads((run / "config.json").read_text())
    assert [Path(c["file"]).name for c in cfg["recipe"]["cards"]] == ["my_cards.toml", "volley.toml"]
    card = (run / "MODEL_CARD.md").read_text()
    sha = cfg["recipe"]["cards"][0]["sha256"][:16]
    assert f"`my_cards.toml` (sha256 {sha})" in card
    # a changed card file is refused on resume, naming the file
    (tmp_path / "my_cards.toml").write_text(CARDS.replace("health = 3", "health = 4"), encoding="utf-8")
    capsys.readouterr()
    assert main(["train", str(recipe), "--run-dir", str(run), "--resume", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "my_cards.toml: the card file changed since the run" in err and "\n" not in err.strip()


def test_hostwcg_cards_adds_cards_to_any_command_and_its_games_replay_with_the_same_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cards.md, "Your own cards": ``hostwcg deck check`` and ``hostwcg evaluate`` (two worker
    processes) with ``HOSTWCG_CARDS``; the games name the card data, and replay only with it."""
    from hostwcg_env.analysis.records import pool_hash
    from hostwcg_env.analysis.replay import verify
    from hostwcg_env.cards import default_pool
    from hostwcg_env.cli import main

    _files(tmp_path)
    deck, games = str(tmp_path / "ashen_tide.toml"), tmp_path / "games.jsonl"
    shipped = pool_hash()
    assert main(["deck", "check", deck]) == 1  # UNKNOWN_CARD without the files
    files = [str(tmp_path / f) for f in ("my_cards.toml", "more/volley.toml")]
    monkeypatch.setenv("HOSTWCG_CARDS", os.pathsep.join(files))
    assert main(["deck", "check", deck]) == 0
    assert main(["evaluate", "--agents", "heuristic,random", "--games", "2", "--workers", "2", "--decks", deck,
                 "--results", str(games), "--quiet"]) == 0
    recs = _records(games)
    assert len(recs) == 2 and {r["pool"] for r in recs} == {pool_hash()} != {shipped}
    assert all(verify(r) is None for r in recs)  # they replay with the same card files
    monkeypatch.setenv("HOSTWCG_CARDS", str(tmp_path / "more"))  # a folder: its *.toml files
    assert "Ash Volley" in default_pool() and "Ashen Raider" not in default_pool() and pool_hash() != shipped
    monkeypatch.delenv("HOSTWCG_CARDS")
    note = verify(recs[0]) or ""
    assert "card data has changed" in note and "HOSTWCG_CARDS" in note
    capsys.readouterr()
