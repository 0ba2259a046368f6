"""The set-based hostwcg_v1 policy: MaskablePPO trains it on the vector env, numpy inference
matches torch, and the numpy policy plays as the vector env's batched opponent."""

from __future__ import annotations

import numpy as np
import pytest

th = pytest.importorskip("torch")
th.set_num_threads(1)  # small batches: threads only contend (the suite runs with -n 2)

from sb3_contrib import MaskablePPO  # noqa: E402

from agents.set_policy import NumpySetPolicy  # noqa: E402
from agents.set_policy_torch import SetPolicy, export_weights  # noqa: E402
from hostwcg_env import hostwcg_v1  # noqa: E402


def _observations(n: int = 6, steps: int = 40) -> dict[str, np.ndarray]:
    """Observations of real positions (random play), stacked."""
    v = hostwcg_v1.vector_env(n, seed=11)
    obs = v.reset()
    rng = np.random.default_rng(11)
    out = [obs]
    for _ in range(steps):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in v.action_masks()])
        obs = v.step(acts)[0]
        out.append(obs)
    return {k: np.concatenate([o[k] for o in out]) for k in out[0]}


def _model(v, seed: int = 0, head: int = 0) -> MaskablePPO:  # type: ignore[no-untyped-def]
    return MaskablePPO(SetPolicy, v, n_steps=32, batch_size=64, n_epochs=2, seed=seed, device="cpu",
                       policy_kwargs={"dim": 32, "emb": 16, "head": head})


def _torch_logits(model: MaskablePPO, obs: dict[str, np.ndarray]) -> np.ndarray:
    with th.no_grad():
        t_obs, _ = model.policy.obs_to_tensor(obs)
        return model.policy.extract_features(t_obs)[:, : model.policy.features_extractor.n_actions].numpy()


def test_numpy_inference_matches_torch() -> None:
    v = hostwcg_v1.vector_env(2, seed=0)
    model = _model(v)
    th.manual_seed(0)
    for p in model.policy.parameters():  # not the init's small output gains: make logits vary
        p.data.normal_(0, 0.3)
    obs = _observations()
    with th.no_grad():
        t_obs, _ = model.policy.obs_to_tensor(obs)
        features = model.policy.extract_features(t_obs)
        n = v.action_space.n
        t_logits = features[:, :n].numpy()
        t_values = model.policy.predict_values(t_obs).numpy()[:, 0]
    np_policy = NumpySetPolicy(export_weights(model))
    logits, values = np_policy.forward(obs)
    assert logits.shape == t_logits.shape == (len(obs["cards"]), n)
    legal = obs["action_mask"].astype(bool)
    assert np.abs(t_logits[legal]).max() > 0.1, "the check is not vacuous"
    np.testing.assert_allclose(logits, t_logits, rtol=1e-4, atol=1e-4)
    assert not logits[~legal].any() and not t_logits[~legal].any()  # only legal actions are scored
    np.testing.assert_allclose(values, t_values, rtol=1e-4, atol=1e-4)
    # one observation without the batch axis gives the same
    one = {k: a[3] for k, a in obs.items()}
    np.testing.assert_allclose(np_policy.forward(one)[0][0], logits[3], rtol=1e-5, atol=1e-5)
    # the actions: the most probable legal one, as torch's masked distribution gives
    acts, _ = np_policy.predict(obs, action_masks=obs["action_mask"], deterministic=True)
    with th.no_grad():
        t_acts, _ = model.policy.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=True)
    assert np.array_equal(acts, t_acts)
    assert obs["action_mask"][np.arange(len(acts)), acts].all()


def test_the_action_mlp_matches_in_numpy_and_torch() -> None:
    v = hostwcg_v1.vector_env(2, seed=0)
    model = _model(v, head=8)
    th.manual_seed(1)
    for p in model.policy.parameters():
        p.data.normal_(0, 0.3)
    obs = _observations()
    weights = export_weights(model)
    assert weights["enc.head1.weight"].shape == (8, 3 * 32) and weights["enc.head2.weight"].shape == (1, 8)
    t_logits = _torch_logits(model, obs)
    fe = model.policy.features_extractor
    fe.head2.weight.data.zero_()
    fe.head2.bias.data.zero_()
    legal = obs["action_mask"].astype(bool)
    assert np.abs(t_logits - _torch_logits(model, obs))[legal].max() > 0.1, "the MLP adds to the logits"
    np.testing.assert_allclose(NumpySetPolicy(weights).forward(obs)[0], t_logits, rtol=1e-4, atol=1e-4)


def test_widening_with_the_action_mlp_starts_from_the_same_network() -> None:
    """``import_weights`` puts numpy weights without the MLP into a model with it: the MLP starts
    at zero output, so the widened network (torch, and its numpy export) gives the same logits."""
    from agents.set_policy_torch import import_weights

    v = hostwcg_v1.vector_env(2, seed=0)
    narrow = _model(v)
    th.manual_seed(2)
    for p in narrow.policy.parameters():
        p.data.normal_(0, 0.3)
    weights = export_weights(narrow)
    obs = _observations()
    before = NumpySetPolicy(weights).forward(obs)
    wide = _model(v, seed=3, head=8)
    import_weights(wide, weights)
    np.testing.assert_allclose(_torch_logits(wide, obs), before[0], rtol=1e-4, atol=1e-4)
    after = NumpySetPolicy(export_weights(wide)).forward(obs)
    np.testing.assert_allclose(after[0], before[0], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(after[1], before[1], rtol=1e-4, atol=1e-4)
    assert np.abs(export_weights(wide)["enc.head1.weight"]).max() > 0  # the MLP's first layer can learn
    other = MaskablePPO(SetPolicy, v, n_steps=32, batch_size=64, device="cpu", policy_kwargs={"dim": 16, "emb": 16})
    with pytest.raises((ValueError, RuntimeError), match="dim 16|size mismatch"):
        import_weights(other, weights)
    with pytest.raises(ValueError, match="unexpected.*bogus"):
        import_weights(wide, {**weights, "bogus.weight": np.zeros(1, np.float32)})


def test_sampled_actions_are_legal() -> None:
    v = hostwcg_v1.vector_env(2, seed=0)
    policy = NumpySetPolicy(export_weights(_model(v)), deterministic=False, seed=1)
    obs = _observations(n=4, steps=10)
    for _ in range(5):
        acts, _ = policy.predict(obs)
        assert obs["action_mask"][np.arange(len(acts)), acts].all()


def test_maskable_ppo_trains_the_set_policy_and_it_plays_as_the_batched_opponent() -> None:
    """Smoke: a short MaskablePPO run changes the weights; the exported numpy policy is then
    the opponent of a vector env, asked in batches, and games finish."""
    v = hostwcg_v1.vector_env(4, seed=0)
    model = _model(v)
    before = export_weights(model)
    model.learn(total_timesteps=256)
    after = export_weights(model)
    assert model.num_timesteps >= 256
    assert any(not np.array_equal(before[k], after[k]) for k in before)
    calls: list[int] = []
    opponent = NumpySetPolicy(after, deterministic=False, seed=0)

    class Counting:
        def predict(self, obs, action_masks=None, deterministic=False):  # type: ignore[no-untyped-def]
            calls.append(len(action_masks))
            return opponent.predict(obs, action_masks=action_masks)

    v2 = hostwcg_v1.vector_env(4, opponent=Counting(), seed=1, turn_limit=6)  # short games
    v2.reset()
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in v2.action_masks()])
        finished += int(v2.step(acts)[2].sum())
        if finished >= 2:
            break
    assert finished >= 2 and max(calls) > 1


def _dense_reference(enc, obs: dict) -> th.Tensor:  # type: ignore[no-untyped-def]
    """The set encoder's logits computed densely, every row and every action index (the
    formula before rows and actions were packed): the packed forward must equal it on the
    legal actions."""
    relu = th.relu
    cid, zone = obs["card_id"].long(), obs["card_zone"].long()
    x = th.cat([obs["cards"], enc.card_emb(cid) + enc.zone_emb(zone)], dim=-1)
    h = relu(enc.row2(relu(enc.row1(x))))
    onehot = th.nn.functional.one_hot(zone, enc.n_zones + 1)[..., 1:].to(h.dtype)
    pooled = th.einsum("brz,brd->bzd", onehot, h) / onehot.sum(dim=1).clamp(min=1.0)[..., None]
    hist = obs["history"].long()
    kind = hist[..., 0]
    hx = enc.hist_kind(kind) + enc.hist_actor(hist[..., 1]) + enc.card_emb(hist[..., 2]) + enc.card_emb(hist[..., 3])
    present = (kind > 0).to(h.dtype)[..., None]
    hvec = (hx * present).sum(dim=1) / present.sum(dim=1).clamp(min=1.0)
    s = relu(enc.state2(relu(enc.state1(th.cat([pooled.flatten(1), obs["globals"], hvec], dim=-1)))))
    a = enc.act_kind(obs["action_kind"].long()) + enc.act_arg(obs["action_arg"].long()) + \
        enc.card_emb(obs["action_card"].long())

    def rows(r: th.Tensor) -> th.Tensor:
        idx = r.long().clamp(min=0)[..., None].expand(-1, -1, h.shape[-1])
        return th.gather(h, 1, idx) * (r >= 0).to(h.dtype)[..., None]

    av = relu(enc.act1(th.cat([a, rows(obs["action_source_row"]), rows(obs["action_target_row"])], dim=-1)))
    return (av * enc.query(s)[:, None, :]).sum(-1) / enc.dim ** 0.5 + enc.pref(av).squeeze(-1)


def test_the_packed_forward_equals_the_dense_formula_and_its_gradients() -> None:
    """Only the rows in use and the legal actions are computed; on the legal actions the logits
    and the gradients of a loss over them are those of the dense formula."""
    v = hostwcg_v1.vector_env(2, seed=0)
    model = _model(v)
    th.manual_seed(1)
    for p in model.policy.parameters():
        p.data.normal_(0, 0.3)
    obs = _observations(n=4, steps=15)
    t_obs, _ = model.policy.obs_to_tensor(obs)
    enc = model.policy.features_extractor
    legal = th.as_tensor(obs["action_mask"].astype(bool))
    grads = []
    for f in (lambda: enc(t_obs)[:, : v.action_space.n], lambda: _dense_reference(enc, t_obs)):
        enc.zero_grad()
        logits = f()
        (logits[legal] ** 2).sum().backward()
        grads.append({k: p.grad.clone() for k, p in enc.named_parameters() if p.grad is not None})
        grads.append(logits.detach())
    g_packed, packed, g_dense, dense = grads
    assert legal.sum() > len(legal) and (~legal).any()
    np.testing.assert_allclose(packed[legal].numpy(), dense[legal].numpy(), rtol=1e-5, atol=1e-4)
    assert g_packed.keys() == g_dense.keys()
    for k in g_dense:
        np.testing.assert_allclose(g_packed[k].numpy(), g_dense[k].numpy(), rtol=1e-4,
                                   atol=1e-4 * float(g_dense[k].abs().max()) + 1e-6, err_msg=k)
