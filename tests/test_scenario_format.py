"""The scenario format checks what matters (docs/scenarios.md): the order of the drop, banished
and damage zones, object identity across steps (labels), the exact set of legal actions,
what is in play, and places past the configured slots. Each check is shown passing on a true
expectation and failing, with a message that says what is wrong, on a false one."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import hostwcg_env  # noqa: F401  (registers the default card pool)
from hostwcg_env.scenarios import run_doc, setup_game

BANISHER = {"name": "Banisher", "type": "sorcery", "resource": "strife", "cost": "£",
            "abilities": [{"kind": "spell", "targets": {"t": {"type": "entity"}},
                           "steps": [{"do": "banish", "to": "t"}]}]}


def run(doc: dict[str, Any]) -> list[str]:
    return run_doc(doc, "<test>").mismatches


def with_expect(doc: dict[str, Any], step: int, **expect: Any) -> dict[str, Any]:
    """A copy of ``doc`` whose step ``step`` expects ``expect`` instead."""
    out = copy.deepcopy(doc)
    out["step"][step]["expect"] = expect
    return out


# --------------------------------------------------------------------------- ordered zones

SPARK_THEN_SNUFF = {
    "setup": {"turn": 1, "phase": "action1",
              "A": {"hand": ["Spark", "Snuff"], "pool": {"£": 4}},
              "B": {"front": {0: "Squire", 1: "Wall"}}},
    "step": [{"do": ["A play Spark", "A target B.f0", "resolve", "A slot b0", "resolve",
                     "A play Snuff", "A target B.f1", "resolve", "A slot b0", "resolve"],
              "expect": {"A.drop": ["Spark", "Snuff"], "B.drop": ["Squire", "Wall"]}}],
}


def test_the_drop_zone_is_compared_in_order() -> None:
    """Cards reach the drop zone in order (4.2.1); a list names them oldest first."""
    assert run(SPARK_THEN_SNUFF) == []
    wrong = run(with_expect(SPARK_THEN_SNUFF, 0, **{"B.drop": ["Wall", "Squire"]}))
    assert wrong == ["step 1: B.drop: expected ['Wall', 'Squire'], got ['Squire', 'Wall']"]
    assert run(with_expect(SPARK_THEN_SNUFF, 0, **{"B.drop": {"any_order": ["Wall", "Squire"]}})) == []
    assert run(with_expect(SPARK_THEN_SNUFF, 0, **{"B.drop": 2})) == []


def test_the_banished_zone_is_compared_in_order() -> None:
    doc = {
        "cards": [BANISHER],
        "setup": {"turn": 1, "phase": "action1",
                  "A": {"hand": ["Banisher", "Banisher"], "pool": {"£": 2}},
                  "B": {"front": {0: "Ogre", 1: "Wall"}}},
        "step": [{"do": ["A play Banisher", "A target B.f1", "resolve", "A slot b0", "resolve",
                         "A play Banisher", "A target B.f0", "resolve", "A slot b0", "resolve"],
                  "expect": {"B.banished": ["Wall", "Ogre"]}}],
    }
    assert run(doc) == []
    assert run(with_expect(doc, 0, **{"B.banished": ["Ogre", "Wall"]})) == [
        "step 1: B.banished: expected ['Ogre', 'Wall'], got ['Wall', 'Ogre']"]


def test_the_damage_zone_is_compared_in_order() -> None:
    """Host damage goes on top of the damage zone (2.1.2): bottom first in the list."""
    doc = {
        "setup": {"turn": 1, "phase": "action1", "A": {"hand": ["Blast"], "pool": {"£": 2}},
                  "B": {"hand": ["Ogre", "Wall", "Duelist", "Squire"], "damage_zone": ["Herald"]}},
        "step": [{"do": ["A play Blast", "A target B.host", "resolve", "A slot b0", "A pass", "B pass",
                         "B card Wall", "B card Ogre", "B card Squire"],
                  "expect": {"B.damage_zone": ["Herald", "Wall", "Ogre", "Squire"]}}],
    }
    assert run(doc) == []
    assert run(with_expect(doc, 0, **{"B.damage_zone": ["Herald", "Ogre", "Wall", "Squire"]})) == [
        "step 1: B.damage_zone: expected ['Herald', 'Ogre', 'Wall', 'Squire'], "
        "got ['Herald', 'Wall', 'Ogre', 'Squire']"]


# --------------------------------------------------------------------------- identity

SHIFT_THEN_RECALL = {
    "setup": {"turn": 1, "phase": "action1",
              "A": {"hand": ["Shift", "Recall"], "pool": {"&": 1, "%": 1, "£": 3},
                    "front": {0: {"card": "Ogre", "damage": 1, "label": "ogre"}}}},
    "step": [
        # Shift moves the Ogre: moving slots keeps the object (8.2, 36.2.1)
        {"do": ["A play Shift", "A target A.f0", "resolve", "A slot b0", "A pass", "B pass", "A slot f3"],
         "expect": {"A.f3.is": "ogre", "label.ogre": "A.f3", "A.f3.damage": 1}},
        # Recall returns it to the hand: a new object (36.2); the old one is gone
        {"do": ["A play Recall", "A target A.f3", "resolve", "A slot b0", "resolve"],
         "expect": {"label.ogre": "gone", "A.hand": ["Ogre"]}},
        # replayed, it is yet another object, with no damage; name it for the next step
        {"do": ["A play Ogre", "resolve", "A slot f0"],
         "expect": {"A.f0.is_not": "ogre", "A.f0.damage": 0},
         "label": {"ogre2": "A.f0"}},
        {"do": [], "expect": {"A.f0.is": "ogre2", "label.ogre2": "A.f0"}},
    ],
}


def test_labels_follow_an_object_across_steps() -> None:
    assert run(SHIFT_THEN_RECALL) == []


def test_identity_mismatches_say_what_is_where() -> None:
    assert run(with_expect(SHIFT_THEN_RECALL, 0, **{"A.f3.is_not": "ogre"})) == [
        "step 1: A.f3.is_not: expected another object than the one labelled 'ogre'; A.f3 holds it"]
    assert run(with_expect(SHIFT_THEN_RECALL, 0, **{"label.ogre": "A.f0"})) == [
        "step 1: label.ogre: expected 'A.f0', got 'A.f3'"]
    assert run(with_expect(SHIFT_THEN_RECALL, 2, **{"A.f0.is": "ogre"})) == [
        "step 3: A.f0.is: expected the object labelled 'ogre' (now gone); A.f0 holds Ogre (another object)"]
    assert run(with_expect(SHIFT_THEN_RECALL, 0, **{"A.f3.is": "orge"})) == [
        "step 1: A.f3.is: 'orge' is not a label (labels: ogre)"]
    assert run(with_expect(SHIFT_THEN_RECALL, 0, **{"label.orge": "A.f3"})) == [
        "step 1: label.orge: no object is labelled 'orge' (labels: ogre)"]


def test_labels_in_every_zone_of_the_setup() -> None:
    """Hand, deck, damage zone, forms, markers, Host and the stack take labels too."""
    doc = {
        "setup": {"turn": 1, "phase": "action1",
                  "A": {"host": {"card": "Test Host", "label": "host"},
                        "hand": [{"card": "Squire", "label": "sq"}, "Wall"],
                        "deck": ["Ogre", {"card": "Herald", "label": "herald"}],
                        "damage_zone": [{"card": "Wall", "label": "dmg"}],
                        "forms": [{"card": "Oath of Steel", "label": "oath"}],
                        "front": {1: {"card": "Squire", "markers": [{"card": "Iron Blade", "label": "blade"}]}},
                        "pool": {"&": 1}},
                  "stack": [{"controller": "A", "card": "Insight", "label": "insight"}]},
        "step": [{"do": [], "expect": {"label.host": "A.host", "label.sq": "A.hand", "label.herald": "A.deck",
                                       "label.dmg": "A.damage_zone", "label.oath": "A.form0",
                                       "label.blade": "A.f1.m0", "label.insight": "stack0",
                                       "A.form0.is": "oath", "stack0.is": "insight"}}],
    }
    assert run(doc) == []
    labels: dict[str, int] = {}
    game = setup_game(doc, "<test>", labels)
    assert game.state.objs[labels["blade"]].name == "Iron Blade"
    assert set(labels) == {"host", "sq", "herald", "dmg", "oath", "blade", "insight"}


def test_bad_labels_are_refused() -> None:
    twice = {"setup": {"A": {"hand": [{"card": "Squire", "label": "x"}], "front": {0: {"card": "Ogre", "label": "x"}}}}}
    assert run(twice) == ["setup: <test>: setup.A.front.0.label: label 'x' is used twice"]
    typo = {"setup": {"A": {"hand": [{"card": "Squire", "lable": "x"}]}}}
    assert run(typo) == ["setup: <test>: setup.A.hand[0].lable: unknown field (known: card, label)"]
    empty = {"setup": {}, "step": [{"do": [], "label": {"x": "A.f2"}}]}
    assert run(empty) == ["step 1: label: x = 'A.f2': the place is empty"]


# --------------------------------------------------------------------------- legal actions

PRIORITY = {
    "setup": {"turn": 1, "phase": "action1", "A": {"hand": ["Squire", "Ogre"], "pool": {"&": 1}, "ap": 1}},
    "step": [{"do": [], "expect": {"legal_exactly": ["A pass", "A play Squire", "A ap host", "A ap draw"]}}],
}


def test_legal_exactly_is_the_whole_set() -> None:
    """With 1 # and one & a player may pass, play the Squire, or spend the # (11.3.1, 11.3.2);
    not the Ogre (££$), nor 11.3.3 (it takes 2 #)."""
    assert run(PRIORITY) == []
    assert run(with_expect(PRIORITY, 0, legal_exactly=["A pass", "A play Squire", "A ap host"])) == [
        "step 1: legal_exactly: also legal: ['A ap draw']"]
    assert run(with_expect(PRIORITY, 0, legal_exactly=["A pass", "A play h1", "A play Squire",
                                                       "A ap host", "A ap draw"])) == [
        "step 1: legal_exactly: not legal: ['A play h1']"]
    assert run(with_expect(PRIORITY, 0, illegal=["A ap any £", "A play Ogre"])) == []  # 2 #; ££$
    assert run(with_expect(PRIORITY, 0, legal_exactly=["B pass"])) == [
        "step 1: legal_exactly: 'B pass' names B, but A is deciding",
        "step 1: legal_exactly: also legal: ['A ap draw', 'A ap host', 'A pass', 'A play h0']"]


# --------------------------------------------------------------------------- in play

def test_in_play_lists_slots_forms_and_markers() -> None:
    """5.1: a card in a slot (a face-down Ambush too), in the form zone, or a marker is in play;
    the hand and the Host are not."""
    doc = {
        "setup": {"turn": 1, "phase": "action1",
                  "A": {"hand": ["Wall"], "forms": ["Oath of Steel"], "back": {0: "Snare"},
                        "front": {2: {"card": "Squire", "markers": ["Iron Blade"]}}},
                  "B": {"front": {0: "Ogre"}}},
        "step": [{"do": [], "expect": {"A.in_play": ["Squire", "Iron Blade", "Snare", "Oath of Steel"],
                                       "B.in_play": 1}}],
    }
    assert run(doc) == []
    assert run(with_expect(doc, 0, **{"A.in_play": ["Squire", "Snare", "Oath of Steel", "Wall"]})) == [
        "step 1: A.in_play: expected ['Squire', 'Snare', 'Oath of Steel', 'Wall'], "
        "got ['Squire', 'Iron Blade', 'Snare', 'Oath of Steel']"]


# --------------------------------------------------------------------------- places

@pytest.mark.parametrize("front,place,message", [
    (5, "A.f5", "A.f5: no such place: A has 5 frontrow slots (f0-f4)"),
    (3, "A.f3", "A.f3: no such place: A has 3 frontrow slots (f0-f2)"),
    (5, "B.b4", "B.b4: no such place: B has 4 backrow slots (b0-b3)"),
    (5, "A.f7.damage", "A.f7: no such place: A has 5 frontrow slots (f0-f4)"),
])
def test_a_place_past_the_slots_is_an_error_not_empty(front: int, place: str, message: str) -> None:
    doc = {"config": {"frontrow_slots": front}, "setup": {},
           "step": [{"do": [], "expect": {place: "empty"}}]}
    assert run(doc) == [f"step 1: {message}"]


def test_places_past_the_slots_in_actions_setup_and_labels() -> None:
    spark = {"setup": {"turn": 1, "phase": "action1", "A": {"hand": ["Spark"], "pool": {"£": 1}},
                       "B": {"front": {0: "Squire"}}},
             "step": [{"do": ["A play Spark", "A target A.f5"]}]}
    assert run(spark) == ["step 1: 'A target A.f5': A.f5: no such place: A has 5 frontrow slots (f0-f4)"]
    slot = {"config": {"frontrow_slots": 2},
            "setup": {"turn": 1, "phase": "action1", "A": {"hand": ["Squire"], "pool": {"&": 1}}},
            "step": [{"do": ["A play Squire", "resolve", "A slot f2"]}]}
    assert run(slot) == ["step 1: 'A slot f2': f2: no such place: A has 2 frontrow slots (f0-f1)"]
    error = copy.deepcopy(slot)
    error["step"] = [{"do": ["A play Squire", "resolve"]},
                     {"do": ["A slot f2"], "expect": {"error": "no such place"}}]
    assert run(error) == []
    setup = {"setup": {"A": {"front": {5: "Squire"}}}}
    assert run(setup) == ["setup: <test>: setup.A.front.5: no such place: A has 5 frontrow slots (f0-f4)"]
    stack = {"setup": {"stack": [{"controller": "A", "card": "Spark", "targets": ["B.f5"]}]}}
    assert run(stack) == ["setup: <test>: setup.stack[0].targets: B.f5: no such place: "
                          "B has 5 frontrow slots (f0-f4)"]
    label = {"setup": {}, "step": [{"do": [], "label": {"x": "A.b4"}}]}
    assert run(label) == ["step 1: label: A.b4: no such place: A has 4 backrow slots (b0-b3)"]
