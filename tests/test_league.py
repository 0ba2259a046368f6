"""The v1 self-play league (agents/league.py): PFSP follows the results, Elo ratings, the state
round trip; the vector env's opponent pool and engine-level opponents; scripts/train_v1.py
trains, snapshots, evaluates, and a run stopped and started again continues from its save."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from agents import make_agent
from agents.league import ANCHOR_RATING, League
from hostwcg_env import hostwcg_v1
from hostwcg_env.env import AGENTS


def _league(**kw) -> League:  # type: ignore[no-untyped-def]
    return League(["random", "heuristic", "lookahead"], seed=0, **kw)


def test_pfsp_weights_follow_the_learners_recent_results() -> None:
    lg = _league(window=10, floor=0.0)
    assert np.allclose(lg.weights(), 1 / 3)  # nothing played yet: every member counts as even
    for _ in range(10):
        lg.record(0, +1.0)  # the learner beats random
        lg.record(1, -1.0)  # and loses to the heuristic
        lg.record(2, 0.0)   # draws with lookahead
    p = [lg.win_rate(i) for i in range(3)]
    assert p == pytest.approx([11 / 12, 1 / 12, 6 / 12])
    f = np.array([(1 - x) ** 2 for x in p])
    assert lg.weights() == pytest.approx(f / f.sum())
    assert lg.weights()[1] > lg.weights()[2] > lg.weights()[0]
    draws = np.bincount([lg.sample() for _ in range(3000)], minlength=3) / 3000
    assert draws == pytest.approx(lg.weights(), abs=0.03)
    # recent results only: ten wins against the heuristic push its old losses out of the window
    for _ in range(10):
        lg.record(1, +1.0)
    assert lg.win_rate(1) == pytest.approx(11 / 12) and lg.members[1].games == 20
    assert lg.weights()[2] > lg.weights()[1]


def test_variance_weighting_prefers_the_opponents_beaten_about_half_the_time() -> None:
    lg = _league(window=10, floor=0.0, weighting="variance")
    for _ in range(10):
        lg.record(0, +1.0)
        lg.record(1, -1.0)
        lg.record(2, 0.0)
    f = np.array([p * (1 - p) for p in (11 / 12, 1 / 12, 6 / 12)])
    assert lg.weights() == pytest.approx(f / f.sum()) and lg.weights().argmax() == 2
    assert League.from_dict(lg.to_dict()).weighting == "variance"
    with pytest.raises(ValueError, match="weighting"):
        League(weighting="soft")


def test_the_floor_keeps_every_member_in_play_and_retired_snapshots_are_not_drawn() -> None:
    lg = League(["random", "heuristic"], window=50, floor=0.1, max_snapshots=2, seed=1)
    for _ in range(50):
        lg.record(0, +1.0)
        lg.record(1, -1.0)
    w = lg.weights()
    assert w[0] == pytest.approx(0.1 * w[1])
    for s in (100, 200, 300):
        lg.add_snapshot(f"snap_{s}", f"snap_{s}.npz", s)
    assert [m.active for m in lg.members] == [True, True, False, True, True]
    assert lg.weights()[2] == 0.0
    assert 2 not in {lg.sample() for _ in range(500)}
    with pytest.raises(ValueError, match="already has a member named 'snap_100'"):
        lg.add_snapshot("snap_100", "x.npz", 100)


def test_ratings_are_fitted_to_all_evaluation_games_with_random_as_the_anchor() -> None:
    lg = _league()
    # the learner at step 100 wins 3 of 4 against random (odds 3:1, less the virtual draw's pull)
    for x in (1.0, 1.0, 1.0, 0.0):
        lg.record_eval(0, x, steps=100)
    by_steps = lg.fit_ratings()
    assert lg.members[0].rating == ANCHOR_RATING
    # 3.5 of 5 with the virtual draw: the MLE of two players is the odds of their scores
    assert by_steps[100] == pytest.approx(ANCHOR_RATING + 400 * np.log10(3.5 / 1.5), abs=0.5)
    # a later learner beats random always, the heuristic half the time: the heuristic is rated
    # through it, and the learner's rating is its latest version's
    for _ in range(10):
        lg.record_eval(0, 1.0, steps=200)
        lg.record_eval(1, 1.0, steps=200)
        lg.record_eval(1, 0.0, steps=200)
    by_steps = lg.fit_ratings()
    assert by_steps[200] > by_steps[100] > ANCHOR_RATING
    assert lg.learner_rating == by_steps[200]
    assert lg.members[1].rating == pytest.approx(by_steps[200], abs=40)
    assert lg.members[2].rating == ANCHOR_RATING  # never played: unrated
    assert lg.expected(1) == pytest.approx(0.5, abs=0.06)
    assert lg.members[1].eval_games == 20 and lg.learner_eval_games == 34
    with pytest.raises(ValueError, match="0, 0.5 or 1"):
        lg.record_eval(0, 2.0)
    with pytest.raises(IndexError, match="no member 7"):
        lg.record_eval(7, 1.0)


def test_the_state_round_trips_and_the_sampler_continues(tmp_path: Path) -> None:
    lg = _league(window=5)
    lg.add_snapshot("snap_1", "a.npz", 1)
    for i, r in [(0, 1.0), (1, -1.0), (3, 0.0), (1, 1.0)]:
        lg.record(i, r)
    lg.record_eval(1, 0.0, steps=3)
    lg.fit_ratings()
    lg.sample()
    lg.save(tmp_path / "league.json", {"next_eval": 7})
    back, extra = League.load(tmp_path / "league.json")
    assert extra == {"next_eval": 7}
    assert back.to_dict() == lg.to_dict()
    assert [back.sample() for _ in range(20)] == [lg.sample() for _ in range(20)]
    assert back.members[1].results.maxlen == 5


def test_bad_league_settings_say_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="window"):
        League(window=0)
    with pytest.raises(ValueError, match="floor"):
        League(floor=2.0)
    with pytest.raises(KeyError, match="no member named 'x'"):
        _league().index("x")


# ----------------------------------------------------------------------------- the vector env's pool
class _Seen:
    """An engine-level agent that plays the heuristic and notes whose view it was given."""

    name = "seen"

    def __init__(self) -> None:
        self.inner = make_agent("heuristic", seed=0)
        self.players: list[int] = []

    def choose(self, view, actions):  # type: ignore[no-untyped-def]
        self.players.append(view.player)
        return self.inner.choose(view, actions)


def test_the_vector_env_draws_an_opponent_per_episode_and_names_it_in_the_infos() -> None:
    seen = _Seen()
    picks: list[int] = []

    def pick(game: int) -> int:
        picks.append(1 if len(picks) % 3 else 0)
        return picks[-1]

    v = hostwcg_v1.vector_env(4, opponent=["random", seen], seed=3, turn_limit=8)
    v.pick = pick
    v.reset()
    played = v.opp_index.copy()
    assert played.tolist() == picks[:4]
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(600):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in v.action_masks()])
        _, _, dones, infos = v.step(acts)
        for i in np.flatnonzero(dones):
            assert infos[i]["opponent"] == played[i]  # the game is scored against the one it started with
            finished += 1
        played = v.opp_index.copy()
        for i in range(4):  # whoever the learner faces, it is asked only on its own turns
            assert v.games[i].agent_selection == AGENTS[int(v.seats[i])]
        if finished >= 8:
            break
    assert finished >= 8 and seen.players
    assert len(picks) == 4 + finished
    # the engine agent decided for the opponent's seat only, from that seat's view
    assert not v.opponent_buffers["card_id"].any(), "random and engine opponents write no observation"


def test_set_opponents_changes_the_pool_for_the_next_episodes() -> None:
    v = hostwcg_v1.vector_env(2, opponent="random", seed=0, turn_limit=4)
    v.reset()
    v.set_opponents(["random", make_agent("heuristic", seed=1)])
    v.pick = lambda game: 1
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(300):
        _, _, dones, infos = v.step(np.array([rng.choice(np.flatnonzero(m)) for m in v.action_masks()]))
        seen |= {infos[i]["opponent"] for i in np.flatnonzero(dones)}
        if 1 in seen:
            break
    assert seen >= {0, 1}  # the games under way finished against random, the next ones the heuristic
    v.pick = lambda game: 5
    with pytest.raises(ValueError, match="pick"):
        for _ in range(300):
            v.step(np.array([rng.choice(np.flatnonzero(m)) for m in v.action_masks()]))
    with pytest.raises(ValueError, match="make_agent"):
        hostwcg_v1.vector_env(1, opponent=["random", "heuristic"])


# ----------------------------------------------------------------------------- scripts/train_v1.py
ROOT = Path(__file__).resolve().parent.parent


def _script() -> ModuleType:
    from agents.training import train_v1

    return train_v1


def _train(out: Path, steps: int, *extra: str) -> dict:  # type: ignore[type-arg]
    pytest.importorskip("sb3_contrib")
    _script().main(["--steps", str(steps), "--out", str(out), "--envs", "4", "--n-steps", "16", "--batch-size", "32",
              "--epochs", "1", "--snapshot-every", "128", "--eval-every", "128", "--eval-games", "2",
              "--opponents", "random,heuristic", "--dim", "16", "--emb", "8", "--seed", "1", *extra])
    return json.loads((out / "league.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_train_v1_snapshots_evaluates_and_continues_where_it_was_stopped(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sb3_contrib")
    tv1 = _script()
    out = tmp_path / "run"
    first = _train(out, 256)
    assert first["steps"] == 256 and first["next_snapshot"] == 384 and first["next_eval"] == 384
    names = [m["name"] for m in first["league"]["members"]]
    assert names == ["random", "heuristic", "snap_128", "snap_256"]
    assert all((out / "snapshots" / f"step_{s}.npz").exists() for s in (128, 256))
    assert [e["steps"] for e in first["evaluations"]] == [128, 256]
    assert first["league"]["learner_eval_games"] == 2 * (2 + 2 + 2 * 2 - 1)  # 2 agents + the snapshots there were
    games = {m["name"]: m["games"] for m in first["league"]["members"]}
    assert sum(games.values()) > 0
    assert list((out / "tb").iterdir())

    # killed after its save at step 384: the next run continues from there
    real_save = tv1.Run.save

    def save_then_die(self):  # type: ignore[no-untyped-def]
        real_save(self)
        if self.model.num_timesteps >= 384:
            raise KeyboardInterrupt

    monkeypatch.setattr(tv1.Run, "save", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        _train(out, 1024)
    monkeypatch.setattr(tv1.Run, "save", real_save)
    killed = json.loads((out / "league.json").read_text(encoding="utf-8"))
    assert killed["steps"] == 384 and [e["steps"] for e in killed["evaluations"]] == [128, 256, 384]
    assert len(killed["runs"]) == 1  # the killed run never finished

    resumed = _train(out, 512, "--lr", "0.001")  # a new learning rate for the rest of the run
    assert resumed["steps"] == 512 and [e["steps"] for e in resumed["evaluations"]] == [128, 256, 384, 512]
    assert [m["name"] for m in resumed["league"]["members"]][-3:] == ["snap_256", "snap_384", "snap_512"]
    assert [r["resumed"] for r in resumed["runs"]] == [False, True] and resumed["runs"][1]["from_steps"] == 384
    for m in resumed["league"]["members"]:  # the results carried over: no counter went back
        assert m["games"] >= games.get(m["name"], 0)
    # a run to where it already is changes nothing in the model
    from sb3_contrib import MaskablePPO

    saved = MaskablePPO.load(out / "latest.zip", device="cpu")
    assert saved.learning_rate == 0.001 and saved.lr_schedule(0.5) == 0.001
    before = saved.policy.state_dict()
    again = _train(out, 512)
    after = MaskablePPO.load(out / "latest.zip", device="cpu").policy.state_dict()
    assert again["steps"] == 512 and all(np.array_equal(before[k], after[k]) for k in before)
    assert len([d for d in (out / "tb").iterdir() if d.is_dir()]) == 1  # one TensorBoard run, continued


def test_play_scores_a_policy_against_an_engine_agent() -> None:
    pytest.importorskip("sb3_contrib")
    tv1 = _script()
    from sb3_contrib import MaskablePPO

    from agents.set_policy_torch import SetPolicy, export_weights

    model = MaskablePPO(SetPolicy, hostwcg_v1.vector_env(2, seed=0), n_steps=8, batch_size=16, device="cpu",
                        policy_kwargs={"dim": 16, "emb": 8})
    scores = tv1.play(export_weights(model), make_agent("heuristic", seed=0), 4, seed=0, turn_limit=6)
    assert len(scores) == 4 and set(scores) <= {0.0, 0.5, 1.0}


def test_a_state_saved_without_its_evaluation_games_rebuilds_them_from_the_evaluations() -> None:
    tv1 = _script()
    run = object.__new__(tv1.Run)
    run.league = _league()
    run.league.members[0].eval_games = run.league.learner_eval_games = 20  # the old state's counters
    run.evaluations = [{"steps": 100, "games_per_opponent": 20, "random": 0.95, "heuristic": 0.1,
                        "lookahead": 0.025, "elo_learner": 913.4}]
    run._rebuild_evals()
    lg = run.league
    by_member = {i: [x for _, j, x in lg.evals if j == i] for i in range(3)}
    assert [len(v) for v in by_member.values()] == [20, 20, 20]
    assert [m.eval_games for m in lg.members] == [20, 20, 20] and lg.learner_eval_games == 60
    assert [sum(v) for v in by_member.values()] == [19.0, 2.0, 0.5]
    assert lg.learner_rating > ANCHOR_RATING and {st for st, _, _ in lg.evals} == {100}


def test_decks_ladder_trains_on_the_ladders_ten_decks_and_a_resumed_run_keeps_them(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    tv1 = _script()
    from hostwcg_env.analysis.records import shipped_deck_refs

    assert tv1.deck_kwargs("shipped") == {}
    pools = tv1.deck_kwargs("ladder")["deck_pools"]
    ladder = {ref.name for ref in shipped_deck_refs()}  # what the ladder's schedule deals
    assert len(pools) == 2 and all({d.name for d in p} == ladder for p in pools) and len(ladder) == 10
    with pytest.raises(ValueError, match="--decks"):
        tv1.deck_kwargs("mine")
    out = tmp_path / "run"
    assert _train(out, 128, "--decks", "ladder", "--clip", "0.1")["args"]["decks"] == "ladder"
    args = _train(out, 256, "--clip", "0.3")["args"]
    assert args["decks"] == "ladder"  # not given again: the run's own
    assert args["clip"] == 0.1 and args["opponents"] == "random,heuristic"  # recorded as the model and league hold them
