"""hostwcg_v1 demonstrations from game records (agents/demos_v1.py) and the distillation
script (scripts/distill_v1.py): a replayed record shows each choice exactly as the v1 env
shows it while the game is played."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.demos_v1 import V1Demos, batch, merge
from hostwcg_env.analysis.distill import replay_into_v1 as replay_into
from hostwcg_env.analysis.distill import v1_from_records as from_records
from hostwcg_env.analysis.records import shipped_deck_refs
from hostwcg_env.analysis.replay import new_game
from hostwcg_env.analysis.runner import GameSpec, play
from hostwcg_env.engine import Action
from hostwcg_env.env.aec import AGENTS
from hostwcg_env.env.codec import encode
from hostwcg_env.env.v1.aec import raw_env

ROOT = Path(__file__).resolve().parent.parent


def _records(n: int, agents: tuple[str, str] = ("heuristic", "random")) -> list[dict[str, Any]]:
    decks = {d.id: d for d in shipped_deck_refs()}
    ids = ["brae_deep_roots", "karsh_ember_tide", "sable_whispers", "osric_shield_wall"]
    out = []
    for k in range(n):
        spec = GameSpec(decks[ids[k % 4]], decks[ids[(k + 1) % 4]], 700 + k, agents, ask_forced=False)
        out.append(play(spec).record)
    return out


def test_a_replayed_record_gives_the_observations_the_env_gives_while_playing() -> None:
    """The env that takes forced decisions itself (as a learner sees it), stepped through the
    record's actions, shows at every choice the observation, mask and action that the
    demonstration row holds (card features up to their float16 storage)."""
    for rec in _records(3):
        demos = V1Demos(raw_env(auto_single=False))
        added = replay_into(rec, demos, raw_env(auto_single=False), seats=[0, 1])
        data = demos.arrays()
        assert added == len(data["actions"]) > 10
        live = raw_env(auto_single=True)
        game = new_game(rec)
        start = game.state.decisions_total
        live.start_from(game)
        j = 0
        while not live.game.is_over:
            d = live.game.decision
            k = live.game.state.decisions_total - start
            idx = encode(live.layout, live.game.state, d.player, Action.parse(rec["actions"][k]))
            if len(d.actions) >= 2:
                obs = live.observe(AGENTS[d.player])
                row = batch(data, np.array([j]))
                for key, arr in obs.items():
                    want = arr.astype(np.float16) if key == "cards" else arr
                    assert np.array_equal(row[key][0], want.astype(row[key].dtype)), (rec["key"], j, key)
                assert int(data["actions"][j]) == idx
                j += 1
            live.step(idx)
        assert j == len(data["actions"])
        assert live.game.state.winner == rec["winner"]


def test_rows_results_and_value_targets() -> None:
    recs = _records(2)
    data = from_records(recs, agent="heuristic")
    n = len(data["actions"])
    assert int(data["n_games"]) == 2 and n > 0
    obs = batch(data, np.arange(n))
    assert (obs["action_mask"].sum(1) >= 2).all()  # choices only
    assert obs["action_mask"][np.arange(n), data["actions"].astype(np.int64)].all()
    assert set(np.unique(data["outcomes"])) <= {-1, 0, 1}
    assert (np.sign(data["value_targets"]) == data["outcomes"]).all()
    # only the heuristic's seat: the random seat's choices are not rows
    both = from_records(recs)
    assert len(both["actions"]) > n
    merged = merge([data, data])
    assert len(merged["actions"]) == 2 * n and int(merged["n_games"]) == 4
    assert (merged["games"][n:] == data["games"] + 2).all()
    again = batch(merged, np.arange(n, 2 * n))
    for key in obs:
        assert np.array_equal(obs[key], again[key]), key


def test_a_record_that_does_not_replay_is_an_error() -> None:
    rec = dict(_records(1)[0])
    rec["winner"] = None if rec["winner"] is not None else 0
    with pytest.raises(ValueError, match="did not end as recorded"):
        from_records([rec])


def _load(name: str) -> Any:
    return importlib.import_module(f"agents.training.{name}")


def _heuristic_rows(tmp_path: Path, games: int) -> tuple[Any, Path, dict[str, Any]]:
    """``distill_v1`` and the rows extracted from ``games`` of the heuristic's recorded games:
    (the module, the rows file, the extraction's facts)."""
    from hostwcg_env.analysis.recordfile import RecordWriter

    dv = _load("distill_v1")
    src = tmp_path / "games.jsonl"
    with RecordWriter(src) as w:
        for rec in _records(games):
            w.write(rec)
    data_path = tmp_path / "d.npz"
    return dv, data_path, dv.extract([str(src)], "heuristic", None, str(data_path), workers=1)


@pytest.mark.slow
def test_distill_extract_train_eval(tmp_path: Path) -> None:
    """The script end to end on a few records: rows, a MaskablePPO zip whose numpy export
    gives the torch policy's logits, and an evaluation that plays."""
    pytest.importorskip("sb3_contrib")
    import torch as th
    from sb3_contrib import MaskablePPO

    from agents.set_policy import NumpySetPolicy, load_weights

    dv, data_path, facts = _heuristic_rows(tmp_path, 3)
    assert facts["games"] == 3 and facts["rows"] > 0
    out = tmp_path / "bc.zip"
    res = dv.train(dv.load([str(data_path)]), str(out), epochs=2, batch_size=64, holdout=0.34,
                   export=str(tmp_path / "bc.npz"))
    assert len(res["epochs"]) == 2 and 0 <= res["epochs"][-1]["holdout_accuracy"] <= 1
    assert res["epochs"][-1]["train_ce"] < res["epochs"][0]["train_ce"] + 1.0
    assert json.loads(out.with_suffix(".json").read_text())["rows"] == facts["rows"]
    model = MaskablePPO.load(out, device="cpu")
    pol = NumpySetPolicy(load_weights(tmp_path / "bc.npz"))
    from agents.demos_v1 import batch as dense

    obs = dense(dv.load([str(data_path)]), np.arange(8))
    logits_np, _ = pol.forward(obs)
    with th.no_grad():
        t = {k: th.as_tensor(v) for k, v in obs.items()}
        feats = model.policy.features_extractor(t)
    logits_th = feats[:, : logits_np.shape[1]].numpy()
    legal = obs["action_mask"].astype(bool)
    assert np.allclose(logits_np[legal], logits_th[legal], atol=1e-4)
    scores = dv.evaluate_policy(str(tmp_path / "bc.npz"), ["random"], games=2, seed=5)
    assert 0.0 <= scores["random"] <= 1.0
    # DAgger: the student plays, the teacher labels each of its choices, on the ladder's decks
    rows = dv.dagger(str(tmp_path / "bc.npz"), str(tmp_path / "dg.npz"), games=2, teacher="heuristic",
                     opponents="random", envs=2, seed=3, decks="ladder")
    assert rows["decks"] == "ladder" and rows["games"] >= 1 and rows["rows"] > 0 and 0 <= rows["agreement"] <= 1
    labelled = dv.load([str(tmp_path / "dg.npz")])
    assert len(labelled["actions"]) == rows["rows"]
    mask = dense(labelled, np.arange(rows["rows"]))["action_mask"]
    assert mask[np.arange(rows["rows"]), labelled["actions"]].all()  # each label one of the legal actions
    # widening: numpy weights into a model with the action MLP; with --only-head the rest stays
    wide = dv.train(labelled, str(tmp_path / "wide.zip"), epochs=1, batch_size=64, holdout=0.0, lr=1e-2,
                    init=str(tmp_path / "bc.npz"), export=str(tmp_path / "wide.npz"), head=8, only_head=True)
    assert (wide["dim"], wide["emb"], wide["head"], wide["only_head"]) == (64, 32, 8, True)
    before, after = load_weights(tmp_path / "bc.npz"), load_weights(tmp_path / "wide.npz")
    assert sorted(set(after) - set(before)) == ["enc.head1.bias", "enc.head1.weight", "enc.head2.bias",
                                                "enc.head2.weight"]
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert np.abs(after["enc.head2.weight"]).max() > 0  # the MLP learned
    with pytest.raises(ValueError, match="--only-head needs the action MLP"):
        dv.train(labelled, str(tmp_path / "x.zip"), epochs=1, init=str(tmp_path / "bc.npz"), only_head=True)


def test_dagger_tells_a_teacher_with_a_memory_the_students_action(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher that remembers the game (``ppo_v1``, ``ppo_v1:look``: ``label`` then ``record``)
    labels each choice without playing it and is then told the action the student played, so
    its memory (the order it put looked-at cards back, 41.2) follows the game that is played."""
    import agents
    from agents.heuristic import HeuristicAgent
    from agents.set_agent import DEFAULT_V1

    told: list[tuple[Action, Action, tuple[Action, ...]]] = []

    class Spy(HeuristicAgent):
        def label(self, view: Any, actions: tuple[Action, ...]) -> Action:
            self.offered = actions
            self.labelled = self.choose(view, actions)
            return self.labelled

        def record(self, action: Action) -> None:
            told.append((self.labelled, action, self.offered))

    monkeypatch.setattr(agents, "make_agent", lambda name, seed=None: Spy(seed=seed))
    dv = _load("distill_v1")
    facts = dv.dagger(str(DEFAULT_V1), str(tmp_path / "dg.npz"), games=2, teacher="spy",
                      opponents="random", envs=2, seed=4)
    assert len(told) >= facts["rows"] > 0
    assert all(played in offered for _, played, offered in told)
    # the student (the shipped network, sampling) and the heuristic disagree at times: those
    # choices are told the student's action, not the label
    disagree = sum(label != played for label, played, _ in told)
    assert 0 < disagree < len(told)
    assert abs((1 - disagree / len(told)) - facts["agreement"]) < 1e-9


def test_cloning_weighs_the_loss_by_the_labels_action_kind(tmp_path: Path) -> None:
    """``kind_weights``: each row's cross-entropy weighs as its label's action kind says. Weights
    of 1 train exactly the network the unweighted loss trains; a weight on one kind changes it,
    and the row weights are the kinds' own."""
    pytest.importorskip("sb3_contrib")
    from agents.set_policy import load_weights
    from hostwcg_env.env.v1.layout import ACTION_KINDS

    dv, data_path, _ = _heuristic_rows(tmp_path, 2)
    data = dv.load([str(data_path)])
    kinds = list(ACTION_KINDS)
    labels = data["actions"].astype(np.int64)
    w = dv.row_weights(data, labels, {"pass": 3.0, "ap_host": 0.5})
    named = {kinds[k] for k in data["action_kind"][labels]}
    assert {"pass", "ap_host"} <= named  # the heuristic's games hold both kinds
    for row, label in enumerate(labels):
        assert w[row] == {"pass": 3.0, "ap_host": 0.5}.get(kinds[data["action_kind"][label]], 1.0)
    with pytest.raises(ValueError, match="not an action kind: ap_anyy"):
        dv.row_weights(data, labels, {"ap_anyy": 2.0})
    # every index of the action space has a kind to weigh (the last, trigger, included)
    every = np.arange(len(data["action_kind"]))
    assert dv.row_weights(data, every, {"trigger": 2.0})[-1] == 2.0 and kinds[data["action_kind"][-1]] == "trigger"

    def trained(name: str, weights: dict[str, float] | None) -> dict[str, np.ndarray]:
        facts = dv.train(data, str(tmp_path / f"{name}.zip"), epochs=1, batch_size=64, holdout=0.0, seed=2,
                         export=str(tmp_path / f"{name}.npz"), kind_weights=weights)
        assert facts["kind_weights"] == (weights or {})
        return load_weights(tmp_path / f"{name}.npz")

    plain, ones, pass3 = trained("plain", None), trained("ones", {"pass": 1.0}), trained("pass3", {"pass": 3.0})
    assert all(np.allclose(plain[k], ones[k], atol=1e-6) for k in plain)
    assert any(not np.allclose(plain[k], pass3[k], atol=1e-4) for k in plain)
