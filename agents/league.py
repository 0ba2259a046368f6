"""A self-play league for hostwcg_v1 (``scripts/train_v1.py``; docs/agents.md, "The v1 league").

The league is the learner's opponents and what is known about them:

* **members**: fixed agents (``random``, ``heuristic``, ``lookahead``...), frozen snapshots of
  the learner (numpy weights of ``agents.set_policy.NumpySetPolicy``, one ``.npz`` each) and
  exploiters (networks trained against a frozen learner, ``agents/training/exploiters.py``:
  played as snapshots are, the ``keep`` latest active, each with a PFSP ``priority``);
* **recent results**: the learner's last ``window`` training games against each member
  (1 a win, 0.5 a draw, 0 a loss);
* **prioritised fictitious self-play** (PFSP): each game draws its opponent with probability
  proportional to ``f(p)`` of the learner's recent win rate ``p`` against it (``p = (score + 1)
  / (games + 2)``: a member not yet played counts as even): ``weighting="hard"``,
  ``f(p) = (1 - p) ** power``, plays the opponents the learner beats less more often;
  ``weighting="variance"``, ``f(p) = p * (1 - p)``, those it beats about half the time (a
  curriculum for a learner that cannot yet win against the strong ones); a member's
  ``priority`` (1 but for exploiters given another) multiplies its weight; ``floor`` keeps every
  active member at least that share of the largest weight, so none is forgotten;
* **ratings**: Elo ratings (400 points: 10 to 1 odds) of the learner and of every member from
  evaluation games (not the training games). ``record_eval`` keeps each game (the learner as
  it was at that step is a player of its own); ``fit_ratings`` finds the ratings that make all
  of them most likely (Bradley-Terry, a draw half a win, by Hunter's MM iterations), with the
  ``anchor`` member (``random``) fixed at 1000 and one virtual draw of every other player
  against it, so a player that won every game gets a finite rating. The learner's rating is
  that of its latest version;
* **state**: ``to_dict`` / ``from_dict`` (JSON: members, results, ratings, the sampler's random
  state, counters), so a run killed and started again continues where its last save was.

Numpy only: the league itself needs no torch.
"""

from __future__ import annotations

import json
import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ANCHOR_RATING = 1000.0
WEIGHTINGS = ("hard", "variance")


@dataclass
class Member:
    """One opponent of the league: ``kind`` is ``agent`` (``name`` is an agent spec for
    ``agents.make_agent``, or ``random``), ``snapshot`` or ``exploiter`` (``path`` holds its
    numpy weights)."""

    name: str
    kind: str
    path: str | None = None
    steps: int | None = None  # the learner's timesteps when a snapshot was taken
    rating: float = ANCHOR_RATING
    anchor: bool = False
    active: bool = True
    results: deque[float] = field(default_factory=deque)
    games: int = 0  # every training game recorded against it (the window keeps the last ones)
    eval_games: int = 0
    priority: float = 1.0  # multiplies its PFSP weight

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "path": self.path, "steps": self.steps,
                "rating": self.rating, "anchor": self.anchor, "active": self.active,
                "results": list(self.results), "games": self.games, "eval_games": self.eval_games,
                "priority": self.priority}


class League:
    """Members, PFSP sampling, recent results and Elo ratings (see the module docstring)."""

    def __init__(self, agents: tuple[str, ...] | list[str] = ("random", "heuristic"), window: int = 200,
                 power: float = 2.0, floor: float = 0.05, max_snapshots: int = 20,
                 seed: int | None = None, weighting: str = "hard") -> None:
        if window < 1:
            raise ValueError(f"window must be >= 1 game, got {window}")
        if power < 0 or not 0 <= floor <= 1 or max_snapshots < 1:
            raise ValueError(f"power must be >= 0, floor in [0, 1] and max_snapshots >= 1 "
                             f"(got power={power}, floor={floor}, max_snapshots={max_snapshots})")
        if weighting not in WEIGHTINGS:
            raise ValueError(f"weighting must be one of {', '.join(WEIGHTINGS)}, got {weighting!r}")
        self.window, self.power, self.floor = window, power, floor
        self.weighting = weighting
        self.max_snapshots = max_snapshots
        self.rng = np.random.default_rng(seed)
        self.members: list[Member] = []
        self.learner_rating = ANCHOR_RATING
        self.learner_eval_games = 0
        self.evals: list[tuple[int, int, float]] = []  # (the learner's steps, member, score)
        for name in agents:
            self.add_agent(name)

    # ------------------------------------------------------------ members
    def _add(self, m: Member) -> int:
        if any(o.name == m.name for o in self.members):
            raise ValueError(f"the league already has a member named {m.name!r}")
        m.results = deque(m.results, maxlen=self.window)
        self.members.append(m)
        return len(self.members) - 1

    def add_agent(self, name: str) -> int:
        """A fixed agent (``random`` is the rating anchor); returns its index."""
        return self._add(Member(name=name, kind="agent", anchor=name == "random"))

    def add_snapshot(self, name: str, path: str, steps: int) -> int:
        """A frozen learner, rated as the learner is now; the oldest active snapshot beyond
        ``max_snapshots`` is retired (kept in the records, no longer drawn). Returns its index."""
        i = self._add(Member(name=name, kind="snapshot", path=path, steps=steps, rating=self.learner_rating))
        snaps = [m for m in self.members if m.kind == "snapshot" and m.active]
        for m in snaps[: max(0, len(snaps) - self.max_snapshots)]:
            m.active = False
        return i

    def add_exploiter(self, name: str, path: str, steps: int, keep: int = 3, priority: float = 1.0) -> int:
        """An exploiter (numpy weights at ``path``, trained against the learner as it was after
        ``steps`` steps), drawn with ``priority`` times its PFSP weight; the oldest active
        exploiters beyond ``keep`` are retired. Returns its index."""
        if keep < 1 or priority <= 0:
            raise ValueError(f"keep must be >= 1 and priority > 0 (got keep={keep}, priority={priority})")
        i = self._add(Member(name=name, kind="exploiter", path=path, steps=steps, rating=self.learner_rating,
                             priority=float(priority)))
        mine = [m for m in self.members if m.kind == "exploiter" and m.active]
        for m in mine[: max(0, len(mine) - keep)]:
            m.active = False
        return i

    def index(self, name: str) -> int:
        for i, m in enumerate(self.members):
            if m.name == name:
                return i
        raise KeyError(f"no member named {name!r} (members: {', '.join(m.name for m in self.members)})")

    # ------------------------------------------------------------ PFSP
    def win_rate(self, i: int) -> float:
        """The learner's recent win rate against member i, ``(score + 1) / (games + 2)``."""
        r = self.members[i].results
        return (sum(r) + 1.0) / (len(r) + 2.0)

    def weights(self) -> np.ndarray:
        """The probability of drawing each member (0 for a retired one)."""
        w = np.array([m.priority * self._f(self.win_rate(i)) if m.active else 0.0
                      for i, m in enumerate(self.members)])
        active = np.array([m.active for m in self.members])
        if not active.any():
            raise RuntimeError("the league has no active member")
        top = w.max()
        if top <= 0:  # the learner wins every recent game against every member: play them evenly
            w = active.astype(float)
        else:
            w = np.where(active, np.maximum(w, self.floor * top), 0.0)
        return w / w.sum()

    def _f(self, p: float) -> float:
        return (1.0 - p) ** self.power if self.weighting == "hard" else p * (1.0 - p)

    def sample(self) -> int:
        """A member index drawn by PFSP."""
        p = self.weights()
        return int(self.rng.choice(len(p), p=p))

    def record(self, i: int, reward: float) -> None:
        """A training game's result against member i (the learner's reward: +1, 0 or -1)."""
        m = self.members[i]
        m.results.append(1.0 if reward > 0 else 0.5 if reward == 0 else 0.0)
        m.games += 1

    # ------------------------------------------------------------ ratings
    def expected(self, i: int) -> float:
        """The learner's expected score against member i by the ratings."""
        return 1.0 / (1.0 + 10.0 ** ((self.members[i].rating - self.learner_rating) / 400.0))

    def record_eval(self, i: int, score: float, steps: int = 0) -> None:
        """An evaluation game's score (1 win, 0.5 draw, 0 loss) of the learner, as it was after
        ``steps`` steps, against member i (``fit_ratings`` then rates everyone)."""
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"an evaluation score is 0, 0.5 or 1, got {score}")
        if not 0 <= i < len(self.members):
            raise IndexError(f"no member {i} (the league has {len(self.members)})")
        self.evals.append((int(steps), int(i), float(score)))
        self.members[i].eval_games += 1
        self.learner_eval_games += 1

    def fit_ratings(self, iterations: int = 500) -> dict[int, float]:
        """Fit every rating to all the evaluation games (see the module docstring); set each
        member's and the learner's (its latest version's); return the learner's rating by its
        steps."""
        if not self.evals:
            return {}
        m = len(self.members)
        versions = sorted({st for st, _, _ in self.evals})
        vid = {st: m + j for j, st in enumerate(versions)}
        anchors = [i for i, mem in enumerate(self.members) if mem.anchor]
        anchor = anchors[0] if anchors else 0
        n = m + len(versions)
        a = np.array([vid[st] for st, _, _ in self.evals])
        b = np.array([i for _, i, _ in self.evals])
        sc = np.array([x for _, _, x in self.evals])
        seen = np.bincount(a, minlength=n) + np.bincount(b, minlength=n) > 0
        others = np.flatnonzero(seen & (np.arange(n) != anchor))  # one virtual draw each against the anchor
        a = np.concatenate([a, others])
        b = np.concatenate([b, np.full(len(others), anchor)])
        sc = np.concatenate([sc, np.full(len(others), 0.5)])
        wins = np.bincount(a, sc, n) + np.bincount(b, 1.0 - sc, n)
        played = seen
        gamma = np.ones(n)
        for _ in range(iterations):
            inv = 1.0 / (gamma[a] + gamma[b])
            denom = np.bincount(a, inv, n) + np.bincount(b, inv, n)
            new = np.where(played, wins / np.where(denom > 0, denom, 1.0), 1.0)
            new /= new[anchor]
            done = np.allclose(new, gamma, rtol=1e-9, atol=0)
            gamma = new
            if done:
                break
        rating = ANCHOR_RATING + 400.0 * np.log10(gamma)
        for i, mem in enumerate(self.members):
            if played[i]:
                mem.rating = float(rating[i])
        self.learner_rating = float(rating[vid[versions[-1]]])
        return {st: float(rating[vid[st]]) for st in versions}

    # ------------------------------------------------------------ state
    def to_dict(self) -> dict[str, Any]:
        return {"window": self.window, "power": self.power, "floor": self.floor,
                "weighting": self.weighting,
                "max_snapshots": self.max_snapshots, "learner_rating": self.learner_rating,
                "learner_eval_games": self.learner_eval_games, "evals": [list(e) for e in self.evals],
                "rng": self.rng.bit_generator.state, "members": [m.to_dict() for m in self.members]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> League:
        lg = cls(agents=(), window=d["window"], power=d["power"], floor=d["floor"],
                 max_snapshots=d["max_snapshots"], weighting=d.get("weighting", "hard"))
        lg.learner_rating = float(d["learner_rating"])
        lg.learner_eval_games = int(d["learner_eval_games"])
        lg.evals = [(int(st), int(i), float(x)) for st, i, x in d.get("evals", [])]
        lg.rng.bit_generator.state = d["rng"]
        for md in d["members"]:
            lg._add(Member(**{**md, "results": deque(md["results"])}))
        return lg

    def save(self, path: str | Path, extra: dict[str, Any] | None = None) -> None:
        """Write the state (and ``extra``, e.g. the run's counters) atomically as JSON."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"league": self.to_dict(), **(extra or {})}, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str | Path) -> tuple[League, dict[str, Any]]:
        """The league and the other entries saved with it."""
        d = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls.from_dict(d.pop("league")), d

    def summary(self) -> list[dict[str, Any]]:
        """One row per member: its win rate, PFSP probability, rating and games."""
        w = self.weights()
        return [{"name": m.name, "active": m.active, "win_rate": round(self.win_rate(i), 3), "p": round(float(w[i]), 3),
                 "rating": round(m.rating, 1), "games": m.games, "eval_games": m.eval_games}
                for i, m in enumerate(self.members)]


__all__ = ["ANCHOR_RATING", "WEIGHTINGS", "League", "Member"]
