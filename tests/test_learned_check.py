"""The learned check (``NumpySetPolicy.check_choice``, ``scripts/learned_check.py``): a second
set network with its own head that picks among the v1 network's most probable actions, numpy alone."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from agents import make_agent
from agents.lookahead import HEURISTIC_KINDS
from agents.set_agent import DEFAULT_V1, SetPolicyAgent
from agents.set_policy import NumpySetPolicy, load_weights
from hostwcg_env.analysis.ladder import schedule
from hostwcg_env.analysis.runner import play

TOP = 4


def _with_head(prefer: int, margin: float) -> dict[str, np.ndarray]:
    """The shipped network with a head whose score is 1 for the action of rank ``prefer`` and 0
    for the others (its first layer reads the rank columns alone)."""
    w = {k: v for k, v in load_weights(DEFAULT_V1).items() if not k.startswith("check.")}
    d = w["enc.row2.weight"].shape[0]
    n_in = 2 * d + 1 + TOP
    w0 = np.zeros((8, n_in), np.float32)
    w0[:TOP, 2 * d + 1:] = np.eye(TOP, dtype=np.float32)  # unit j: "this is rank j"
    w2 = np.zeros((4, 8), np.float32)
    w2[0, prefer] = 1.0
    w4 = np.zeros((1, 4), np.float32)
    w4[0, 0] = 1.0
    w.update({f"check.{k}": v for k, v in w.items() if k.startswith(("enc.", "value."))})
    w.update({"check.head.0.weight": w0, "check.head.0.bias": np.zeros(8, np.float32),
              "check.head.2.weight": w2, "check.head.2.bias": np.zeros(4, np.float32),
              "check.head.4.weight": w4, "check.head.4.bias": np.zeros(1, np.float32),
              "check.margin": np.array([margin], np.float32), "check.top": np.array([TOP], np.float32)})
    return w


class _Pair:
    """The agent with a check plays; beside it the same network without one (``check=False``) is
    shown every view and told every action, so at each choice both rank the same actions."""

    def __init__(self, weights: dict[str, np.ndarray], seed: int) -> None:
        self.agent = SetPolicyAgent(weights, seed=seed)
        self.plain = SetPolicyAgent(weights, seed=seed, check=False)
        self.seen: list[tuple[tuple[object, ...], object, bool]] = []

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)
        self.plain.reset(seed)

    def choose(self, view, actions):  # type: ignore[no-untyped-def]
        own, options = self.plain.propose(view, actions)
        chosen = self.agent.choose(view, actions)
        self.plain.record(chosen)
        d = view.decision()
        checked = len(self.plain.ranked) > 1 and d is not None and d.kind not in HEURISTIC_KINDS
        self.seen.append((self.plain.ranked, chosen, checked))
        return chosen


@pytest.mark.parametrize("prefer,margin", [(1, 0.5), (1, 1.5), (0, 0.0)])
def test_the_check_plays_its_pick_among_the_networks_top_actions(prefer: int, margin: float) -> None:
    """With a head that scores the network's second choice 1 and the others 0, the agent plays
    the network's second choice at every choice the check reads (two or more sensible actions,
    not a setup choice) when the margin is under 1, and the network's own choice otherwise."""
    pair = _Pair(_with_head(prefer, margin), seed=3)
    spec = schedule(["heuristic", "X"], 2, 41)[0]
    players = [pair if n == "X" else make_agent(n, seed=s) for n, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    play(spec, players=players)
    checked = [(ranked, chosen) for ranked, chosen, c in pair.seen if c]
    assert len(checked) > 20
    switch = prefer != 0 and margin < 1.0
    for ranked, chosen in checked:
        assert chosen == (ranked[1] if switch else ranked[0])
    for ranked, chosen, c in pair.seen:
        if not c:
            assert chosen == ranked[0]


def test_weights_without_a_check_play_as_before() -> None:
    w = load_weights(DEFAULT_V1)
    assert not NumpySetPolicy({k: v for k, v in w.items() if not k.startswith("check.")}).has_check
    assert NumpySetPolicy(_with_head(1, 0.5)).has_check


def test_plain_leaves_the_check_out(tmp_path: Path) -> None:
    path = tmp_path / "net_check.npz"
    np.savez(path, **_with_head(1, 0.5))
    assert make_agent(f"ppo_v1:{path}").check
    assert not make_agent(f"ppo_v1:{path}:plain").check
    assert not make_agent(f"ppo_v1:{path}:plain:look").net.check


def test_the_script_makes_rows_and_fits_a_head_that_plays(tmp_path: Path) -> None:
    """``learned_check.py rows`` records the check's scores of the network's top actions; ``train``
    writes the network's weights with a head, which an agent then plays by name."""
    pytest.importorskip("torch")

    from agents.training import learned_check as lc
    facts = lc.rows(str(DEFAULT_V1), str(tmp_path / "rows" / "c0.npz"), games=2, seed=77)
    assert facts["games"] == 2 and facts["rows"] > 20
    with np.load(tmp_path / "rows" / "c0.npz") as z:
        data = {k: z[k] for k in z.files}
    scores, logits, idx = data["scores"], data["logits"], data["top_idx"]
    assert scores.shape == logits.shape == idx.shape == (facts["rows"], TOP) == (len(data["actions"]), TOP)
    have = ~np.isnan(scores)
    assert have[:, :2].all() and (have == ~np.isnan(logits)).all() and (have == (idx >= 0)).all()
    assert (np.nan_to_num(logits[:, :1] - logits, nan=0.0) >= 0).all()  # the network's top first
    assert (data["actions"] == idx[:, 0]).all()
    # each row's observation is the network's: its logits of the recorded actions come back
    from agents.demos_v1 import batch

    rows = np.arange(0, facts["rows"], 7)
    net_logits = NumpySetPolicy(load_weights(DEFAULT_V1)).forward(batch(data, rows))[0]
    got = np.take_along_axis(net_logits, np.maximum(idx[rows], 0).astype(np.int64), axis=1)
    # (the rows keep the card features as float16, so the logits come back to about 1e-3)
    np.testing.assert_allclose(np.where(have[rows], got, 0), np.nan_to_num(logits[rows]), rtol=1e-3, atol=3e-3)
    out = tmp_path / "net_check.npz"
    lc.train(str(DEFAULT_V1), [str(tmp_path / "rows" / "c*.npz")], str(out), margin=0.02, hidden=16, epochs=1,
             holdout=0.5)
    w = load_weights(out)
    assert float(w["check.margin"][0]) == pytest.approx(0.02) and int(w["check.top"][0]) == TOP
    assert out.with_suffix(".json").exists()
    # the numpy check scores as the torch one it was trained as
    import torch as th

    net = lc.CheckNet({k[len("check."):]: v for k, v in w.items() if k.startswith("check.enc.")}, TOP, 16)
    net.head.load_state_dict({k[len("check.head."):]: th.as_tensor(v) for k, v in w.items()
                              if k.startswith("check.head.")})
    policy = NumpySetPolicy(w)
    sub = rows[have[rows].sum(1) >= 3][:5]
    obs = batch(data, sub)
    rel = (np.nan_to_num(logits[sub] - logits[sub, :1]) / lc.CHECK_LOGIT_SCALE).astype(np.float32)
    with th.no_grad():
        tq = net.scores({k: th.as_tensor(v).float() if k in ("cards", "globals") else th.as_tensor(v)
                         for k, v in obs.items()}, th.as_tensor(idx[sub].astype(np.int64)), th.as_tensor(rel)).numpy()
    for j, r in enumerate(sub):
        one = {k: v[j] for k, v in obs.items()}
        n = int(have[r].sum())
        q = policy.check_scores(one, policy.forward(one)[0].reshape(-1), idx[r, :n].astype(np.int64))
        np.testing.assert_allclose(q, tq[j, :n], rtol=1e-4, atol=1e-5)
    spec = schedule(["heuristic", "X"], 2, 43)[1]
    agent = make_agent(f"ppo_v1:{out}", seed=1)
    assert agent.policy.has_check
    players = [agent if n == "X" else make_agent(n, seed=s) for n, s in zip(spec.agents, spec.agent_seeds, strict=True)]
    assert play(spec, players=players).record["winner"] in (0, 1, None)


def test_soft_targets_raise_each_scored_action_by_beta_times_its_gain() -> None:
    """``soft_targets``: the network's softmax with each scored action's logit raised by beta
    times its score less the first's; illegal actions stay at 0, unscored ones keep their logit."""
    pytest.importorskip("torch")

    from agents.training import learned_check as lc
    inf = np.inf
    old = np.array([[2.0, 1.0, 0.0, -inf, -1.0],
                    [0.5, 0.0, -inf, -inf, -inf]], np.float32)
    idx = np.array([[0, 1, 2, -1], [0, 1, -1, -1]])
    scores = np.array([[0.5, 0.6, 0.4, np.nan], [0.5, 0.5, np.nan, np.nan]], np.float32)
    got = lc.soft_targets(old, idx, scores, beta=10.0)
    want0 = np.exp(np.array([2.0, 1.0 + 1.0, 0.0 - 1.0, -inf, -1.0]) - 2.0)
    np.testing.assert_allclose(got[0], want0 / want0.sum(), rtol=1e-5)
    want1 = np.exp(np.array([0.5, 0.0]))
    np.testing.assert_allclose(got[1, :2], want1 / want1.sum(), rtol=1e-5)  # equal scores: its own
    assert got[0, 3] == 0.0 and (got[1, 2:] == 0.0).all()
    np.testing.assert_allclose(got.sum(axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(lc.soft_targets(old, idx, scores, beta=0.0)[0],
                               np.exp(old[0] - 2.0) / np.exp(old[0] - 2.0).sum(), rtol=1e-5)


def test_improve_moves_the_network_towards_the_checks_picks(tmp_path: Path) -> None:
    """``learned_check.py improve`` trains the network of the rows towards the soft targets: where
    the target's most probable action is not the network's, the trained network takes it more
    often; its numpy weights play by name; rows of another network are refused."""
    pytest.importorskip("torch")

    from agents.demos_v1 import batch
    from agents.training import learned_check as lc
    rows_path = tmp_path / "rows" / "c0.npz"
    facts = lc.rows(str(DEFAULT_V1), str(rows_path), games=2, seed=78)
    with np.load(rows_path) as z:
        data = {k: z[k] for k in z.files}
    every = np.arange(facts["rows"])
    before = NumpySetPolicy(load_weights(DEFAULT_V1)).forward(batch(data, every))[0]
    before = np.where(batch(data, every)["action_mask"] > 0, before, -np.inf)
    target = lc.soft_targets(before, data["top_idx"].astype(np.int64), data["scores"], 100.0).argmax(1)
    moved = target != before.argmax(1)
    assert moved.sum() >= 3  # the check found a better action in some choices
    out = tmp_path / "r1.zip"
    lc.improve(str(DEFAULT_V1), [str(rows_path)], str(out), beta=100.0, epochs=8, lr=2e-3, holdout=0.0,
               export=str(tmp_path / "r1.npz"))
    after = NumpySetPolicy(load_weights(tmp_path / "r1.npz")).forward(batch(data, every))[0]
    after = np.where(batch(data, every)["action_mask"] > 0, after, -np.inf)
    soft = lc.soft_targets(before, data["top_idx"].astype(np.int64), data["scores"], 100.0)

    def kl(logits: np.ndarray) -> float:  # from the targets to the network's distribution
        z = logits - logits.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float((soft * np.where(soft > 0, np.log(np.maximum(soft, 1e-30)) - logp, 0.0)).sum(axis=1).mean())

    assert kl(after) < 0.75 * kl(before)
    assert (after.argmax(1)[moved] == target[moved]).mean() > 0.25  # none before training
    assert (after.argmax(1)[~moved] == target[~moved]).mean() > 0.8
    assert out.with_suffix(".json").exists() and out.exists()
    assert make_agent(f"ppo_v1:{tmp_path / 'r1.npz'}").policy is not None
    other = dict(load_weights(DEFAULT_V1))
    other["enc.query.weight"] = -other["enc.query.weight"]
    other["enc.pref.weight"] = -other["enc.pref.weight"]
    np.savez(tmp_path / "other.npz", **other)
    with pytest.raises(SystemExit, match="were not made with"):
        lc.improve(str(tmp_path / "other.npz"), [str(rows_path)], str(tmp_path / "r2.zip"), epochs=1)
