"""Deck lists and the deck-building rules (3.1, A10): every problem is listed at once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from hostwcg_env.cards import Deck, DeckError, check_deck, default_pool, load_deck
from hostwcg_env.engine.carddef import CardType

DECKS = Path(__file__).resolve().parent.parent / "hostwcg_env" / "cards" / "decks"
FILLER = [
    "Ogre",
    "Duelist",
    "Wall",
    "Herald",
    "Sentinel",
    "Spark",
    "Insight",
    "Snuff",
    "Mend",
    "Snare",
    "Aegis",
]


@pytest.fixture(scope="module")
def pool():
    return default_pool()


def legal(**counts: int) -> dict:
    """A legal 50-card list: 4 Squires plus 4 of each filler name, topped up with Raiders."""
    cards = {"Squire": 4, **{name: 4 for name in FILLER}}
    cards.update(counts)
    cards["Raider"] = 0
    cards["Raider"] = 50 - sum(cards.values())
    return {"name": "Test", "plan": "", "host": "Test Host", "cards": cards}


def codes(problems) -> list[str]:
    return [p.code for p in problems]


@pytest.mark.rules("3.1.1", "3.1")
def test_s025_legal_list_starts_the_game(pool):
    deck = legal()
    assert sum(deck["cards"].values()) == 50 and max(deck["cards"].values()) <= 4
    assert check_deck(deck, pool) == []
    import hostwcg_env  # noqa: F401
    from hostwcg_env.engine import Game

    main = [name for name, n in deck["cards"].items() for _ in range(n)]
    game = Game.new((deck["host"], main), (deck["host"], main), seed=1, registry=pool)
    assert game.decision is not None and game.decision.kind.value == "first_player"
    assert [len(p.deck) for p in game.state.players] == [50, 50]


@pytest.mark.rules("3.1.1")
@pytest.mark.parametrize("size", [49, 51])
def test_s026_49_or_51_cards_rejected(pool, size):
    deck = legal()
    deck["cards"]["Raider"] += size - 50
    problems = check_deck(deck, pool)
    assert codes(problems) == ["DECK_SIZE"]
    assert f"DECK_SIZE: {size} main-deck cards" in problems[0].message


@pytest.mark.rules("3.1.2")
def test_s028_copy_limit(pool):
    assert check_deck(legal(Squire=4), pool) == []
    problems = check_deck(legal(Squire=5), pool)
    assert codes(problems) == ["COPY_LIMIT"]
    assert problems[0].message == "COPY_LIMIT Squire: 5 copies (at most 4, rule 3.1.2)"


@pytest.mark.rules("3.1.2")
def test_s029_limit_counts_names_not_printings(pool):
    deck = legal()
    del deck["cards"]["Squire"]
    deck["cards"] = {"Squire [print 1]": 3, "Squire [print 2]": 2, **deck["cards"]}
    deck["cards"]["Raider"] -= 1
    problems = check_deck(deck, pool)
    assert codes(problems) == ["COPY_LIMIT"]
    assert problems[0].message.startswith("COPY_LIMIT Squire: 5 copies")


def test_printings_under_the_limit_are_fine(pool):
    deck = legal()
    del deck["cards"]["Squire"]
    deck["cards"].update({"Squire [print 1]": 2, "Squire [print 2]": 2})
    assert check_deck(deck, pool) == []


@pytest.mark.rules("3.1.1")
def test_s031_host_cards_cannot_be_in_main_deck(pool):
    deck = legal()
    deck["cards"]["Raider"] -= 1
    deck["cards"]["Test Host"] = 1  # 49 cards plus a second Test Host
    problems = check_deck(deck, pool)
    assert codes(problems) == ["HOST_IN_MAIN"]
    assert problems[0].message.startswith("HOST_IN_MAIN Test Host")


def test_tokens_are_never_in_decks(pool):
    deck = legal()
    deck["cards"]["Raider"] -= 1
    deck["cards"]["Wolf"] = 1
    assert codes(check_deck(deck, pool)) == ["TOKEN_IN_DECK"]


def test_unknown_card_suggests_names(pool):
    deck = legal()
    deck["cards"]["Raider"] -= 1
    deck["cards"]["Squrie"] = 1
    (problem,) = check_deck(deck, pool)
    assert problem.code == "UNKNOWN_CARD"
    assert "'Squrie'" in problem.message and "did you mean 'Squire'" in problem.message


@pytest.mark.parametrize(
    ("host", "fragment"),
    [
        (None, "0 Hosts"),
        (["Test Host", "Strife Host"], "2 Hosts"),
        ("Squire", "Squire is an Entity, not a Host"),
    ],
)
def test_exactly_one_host(pool, host, fragment):
    deck = legal()
    if host is None:
        del deck["host"]
    else:
        deck["host"] = host
    problems = check_deck(deck, pool)
    assert codes(problems) == ["HOST_COUNT"]
    assert fragment in problems[0].message


def test_unknown_host(pool):
    deck = {**legal(), "host": "Tset Host"}
    (problem,) = check_deck(deck, pool)
    assert problem.code == "UNKNOWN_CARD" and "did you mean 'Test Host'" in problem.message


def test_many_problems_are_listed_at_once(pool):
    deck = {
        "name": "Chaos",
        "colour": "red",
        "cards": {
            "Squire": 3,
            "Squire [print 2]": 3,
            "Test Host": 1,
            "Wolf": 2,
            "Fireball": 1,
            "Ogre": "four",
        },
    }
    problems = check_deck(deck, pool)
    assert Counter(codes(problems)) == Counter(
        [
            "FORMAT",
            "FORMAT",
            "HOST_COUNT",
            "DECK_SIZE",
            "HOST_IN_MAIN",
            "TOKEN_IN_DECK",
            "UNKNOWN_CARD",
            "COPY_LIMIT",
        ]
    )
    messages = "\n".join(p.message for p in problems)
    for fragment in (
        "'colour'",
        "0 Hosts",
        "DECK_SIZE: 10 ",
        "HOST_IN_MAIN Test Host",
        "TOKEN_IN_DECK Wolf",
        "UNKNOWN_CARD 'Fireball'",
        "COPY_LIMIT Squire: 6 copies",
        "'Ogre'",
    ):
        assert fragment in messages


def test_check_deck_accepts_a_deck_object(pool):
    table = legal()
    names = [name for name, count in table["cards"].items() for _ in range(count)]
    deck = Deck.from_lists("Test Host", names, name="x")
    assert len(deck.main) == 50 and check_deck(deck, pool) == []
    assert codes(check_deck(Deck.from_lists("Test Host", names[:-1]), pool)) == ["DECK_SIZE"]
    assert Deck.from_lists("Test Host", ["Squire [print 2]"]).main == ("Squire",)


@pytest.mark.parametrize("file", ["test_authority.toml", "test_strife.toml"])
def test_shipped_decks_are_legal_and_varied(pool, file):
    deck = load_deck(DECKS / file, pool)
    assert len(deck.main) == 50
    assert max(Counter(deck.main).values()) <= 4
    assert pool[deck.host].type is CardType.HOST
    types = {pool[name].type for name in deck.main}
    assert {CardType.ENTITY, CardType.SORCERY, CardType.FORM, CardType.AMBUSH} <= types
    assert any(pool[name].is_equipment for name in deck.main)
    assert deck.name and deck.plan


def test_shipped_deck_hosts():
    assert load_deck(DECKS / "test_authority.toml").host == "Test Host"
    assert load_deck(DECKS / "test_strife.toml").host == "Strife Host"


def test_load_deck_expands_in_file_order(tmp_path, pool):
    middle = [name for name in FILLER if name not in ("Ogre", "Spark")]  # 9 names x 4 = 36
    lines = [
        'name = "Order"',
        'host = "Test Host"',
        "[cards]",
        '"Squire [print 2]" = 2',
        '"Ogre" = 3',
    ]
    lines += [f'"{name}" = 4' for name in middle]
    lines += ['"Raider" = 4', '"Squire" = 2', '"Spark [print 3]" = 3']
    path = tmp_path / "order.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    deck = load_deck(path, pool)
    assert deck.main[:5] == ("Squire", "Squire", "Ogre", "Ogre", "Ogre")
    assert deck.main[-5:] == ("Squire", "Squire", "Spark", "Spark", "Spark")
    assert (deck.name, deck.plan, len(deck.main)) == ("Order", "", 50)


def test_load_deck_names_the_file_and_lists_problems(tmp_path, pool):
    path = tmp_path / "bad.toml"
    path.write_text('host = "Test Host"\n[cards]\n"Squire" = 5\n', encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_deck(path, pool)
    assert codes(info.value.problems) == ["DECK_SIZE", "COPY_LIMIT"]
    lines = str(info.value).splitlines()
    assert lines == [
        f"{path}: DECK_SIZE: 5 main-deck cards (exactly 50, rule 3.1.1, A10)",
        f"{path}: COPY_LIMIT Squire: 5 copies (at most 4, rule 3.1.2)",
    ]


def test_load_deck_syntax_error(tmp_path, pool):
    path = tmp_path / "broken.toml"
    path.write_text('host = "Test Host\n', encoding="utf-8")
    with pytest.raises(DeckError, match=f"{path}: FORMAT: TOML syntax error"):
        load_deck(path, pool)


def test_deck_file_refused_with_every_problem_and_nearest_names(tmp_path, pool):
    """One bad deck file: every problem listed at once, each naming the file; unknown names get
    the nearest pool names."""
    path = tmp_path / "bad.toml"
    path.write_text(
        "\n".join(
            [
                'name = "Bad"',
                'host = "Verena, High Justicar"',
                'colour = "red"',
                "[cards]",
                '"Vanguard Lancr" = 4',
                '"Gate Warden" = 5',
                '"Soldier" = 2',
                '"Karsh, the Ember Tyrant" = 1',
                '"Royal Decree" = 4',
            ]
        ),
        encoding="utf-8",
    )
    with pytest.raises(DeckError) as info:
        load_deck(path, pool)
    text = str(info.value)
    assert Counter(codes(info.value.problems)) == Counter(
        ["FORMAT", "UNKNOWN_CARD", "DECK_SIZE", "UNKNOWN_CARD", "COPY_LIMIT", "TOKEN_IN_DECK",
         "HOST_IN_MAIN"]
    )
    assert all(line.startswith(f"{path}: ") for line in text.splitlines())
    assert "UNKNOWN_CARD 'Verena, High Justicar': no such card (did you mean 'Verena, High Justiciar'" in text
    assert "UNKNOWN_CARD 'Vanguard Lancr': no such card (did you mean 'Vanguard Lancer'" in text
    assert "COPY_LIMIT Gate Warden: 5 copies" in text
    assert "TOKEN_IN_DECK Soldier" in text and "HOST_IN_MAIN Karsh, the Ember Tyrant" in text
    assert "DECK_SIZE: 16 main-deck cards" in text


@pytest.mark.parametrize("path", sorted(p for p in DECKS.glob("*.toml") if not p.name.startswith("test_")),
                         ids=lambda p: p.stem)
def test_preconstructed_decks_are_legal(pool, path):
    deck = load_deck(path, pool)
    assert len(deck.main) == 50 and max(Counter(deck.main).values()) <= 4
    assert pool[deck.host].type is CardType.HOST
    assert deck.name and deck.plan


def test_deck_diff_gives_the_swap_that_makes_the_new_list(tmp_path, pool, capsys):
    """`hostwcg deck diff OLD NEW`: one line a deck in the --swap syntax; applying that swap to
    the old list gives the new one (as a multiset), and an unchanged deck says so. The old lists
    are a frozen history folder, so that balance work on the shipped decks moves nothing here."""
    from hostwcg_env.analysis.patches import swap_deck
    from hostwcg_env.analysis.records import DeckRef
    from hostwcg_env.cards.decks import DECKS_DIR, deck_changes, swap_text
    from hostwcg_env.cli import main

    frozen = DECKS_DIR / "history" / "2026-11-26"
    old = load_deck(frozen / "brae_deep_roots.toml", pool)
    main_list = list(old.main)
    for card in ("Mossback Tortoise", "Mossback Tortoise", "Sleepy Badger"):
        main_list.remove(card)
    main_list += ["Wandering Golem", "Wandering Golem", "Riverside Healer"]
    new = Deck.from_lists(old.host, main_list, name=old.name)
    assert not check_deck(new, pool)
    changes = deck_changes(old.main, new.main)
    assert sorted(changes) == [("+", 1, "Riverside Healer"), ("+", 2, "Wandering Golem"),
                               ("-", 1, "Sleepy Badger"), ("-", 2, "Mossback Tortoise")]
    assert [c[0] for c in changes] == ["-", "-", "+", "+"]  # the cards taken out first
    text = swap_text("brae_deep_roots", changes)
    _, swapped = swap_deck(text, [DeckRef.of(old, "brae_deep_roots")], pool)
    assert Counter(swapped.main) == Counter(new.main)
    assert deck_changes(old.main, old.main) == []

    folder = tmp_path / "tuned"
    folder.mkdir()
    lines = ['name = "Deep Roots"', 'plan = ""', f'host = "{old.host}"', "", "[cards]"]
    lines += [f'"{c}" = {n}' for c, n in Counter(new.main).items()]
    (folder / "brae_deep_roots.toml").write_text("\n".join(lines) + "\n")
    (folder / "karsh_ember_tide.toml").write_text((frozen / "karsh_ember_tide.toml").read_text())
    assert main(["deck", "diff", str(frozen), str(folder)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert text in out and "karsh_ember_tide: unchanged" in out
    assert f"lior_borrowed_crowns: only in {frozen}" in out and len(out) == 8  # six only in the old folder
    # two files compare whatever their names; an empty folder is refused with its name
    assert main(["deck", "diff", str(frozen / "brae_deep_roots.toml"), str(folder / "brae_deep_roots.toml")]) == 0
    assert capsys.readouterr().out.strip() == text
    (tmp_path / "empty").mkdir()
    assert main(["deck", "diff", "brae", str(tmp_path / "empty")]) == 1
    assert "no deck files (*.toml) in the folder" in capsys.readouterr().err
    assert main(["deck", "diff", "brae", "no_such_deck"]) == 1
    assert "no_such_deck" in capsys.readouterr().err


def test_the_deck_diff_example_of_docs_cards_md_prints_what_it_shows(capsys):
    import re
    import shlex

    from hostwcg_env.cli import main

    doc = (Path(__file__).resolve().parents[1] / "docs" / "cards.md").read_text()
    block = re.search(r"```bash\n(hostwcg deck diff [^\n]+)\n((?:# [^\n]*\n)+)```", doc)
    assert block, "docs/cards.md shows a `hostwcg deck diff` example with its output"
    root = Path(__file__).resolve().parents[1]
    args = [str(root / a) if "/" in a else a for a in shlex.split(block.group(1))[1:]]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    shown = [line[2:] for line in block.group(2).splitlines() if "..." not in line]
    assert len(shown) >= 2 and all(line in out for line in shown)
    assert len(out) == 8  # one line for each of the eight decks
