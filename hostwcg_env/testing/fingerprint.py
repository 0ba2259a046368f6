"""Fingerprint the engine's behaviour: seeded games whose every observable is hashed.

    python scripts/engine_fingerprint.py [--out FILE] [--check FILE] [--quick]

A refactoring of the engine must not change play. This plays a fixed set of seeded games
(random and heuristic agents over the shipped decks, under the default rules and under each
rule flag's other values, a few ISMCTS games that determinize and clone, and env games that
hash every observation and mask) and hashes, per game: every decision (player, kind, prompt,
legal actions in their notation, cards shown), every action taken, the full event log and each
player's view of it, periodic PlayerView queries and redacted states, and the result. Clones
taken along the way are played on to the end and must give the same log.

A change of the rules the engine plays changes some of these games on purpose: say which and why
(ENGINE_EPOCH 3, CHANGELOG.md: game actions inside the resolution, rule 35.4, and the whole
deck seen while searching, rule 41.3, changed 124 of these 223 games against the commit before
them; the other 99 are identical, and the compiled and Python builds give the same 223 hashes).

``--out`` writes ``{game name: hash}`` as JSON; ``--check`` compares with such a file and exits
non-zero naming the games that differ. Run it on a commit before a change (``git archive``) and
on the working tree after it. ``scripts/engine_fingerprint.py`` is the command line.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

from hostwcg_env.cards.decks import DECKS_DIR, load_deck
from hostwcg_env.engine import Game, RuleConfig

DECKS = {p.stem: load_deck(p) for p in sorted(DECKS_DIR.glob("*.toml"))}
NAMES = sorted(DECKS)

VARIANTS: list[dict[str, Any]] = [
    {},
    {"damage_draws": True},
    {"damage_card_choice": "random"},
    {"draw_shortfall": "draw_max"},
    {"heal_destination": "hand"},
    {"ap_refresh": "set4"},
    {"resource_decay": "end_of_turn"},
    {"resource_decay": "end_of_phase"},
    {"entity_damage_clears_at_end_of_turn": True},
    {"priority_after_action": "opponent"},
    {"auto_pay": True},
    {"public_decklists": True},
    {"frontrow_slots": 3, "backrow_slots": 2},
    {"turn_limit": 12},
    {"max_decisions_per_turn": 40},
]


def new_game(a: str, b: str, config: RuleConfig, seed: int) -> Game:
    try:
        from hostwcg_env.cards import default_ruleset  # the engine v2 API
    except ImportError:
        return Game.new(DECKS[a], DECKS[b], config=config, seed=seed)
    return default_ruleset(config).new_game(DECKS[a], DECKS[b], seed=seed)


def _objname(o: Any) -> str:
    if o is None:
        return "-"
    if isinstance(o, str):
        return o
    return f"{o.id}:{o.card.name}:{o.damage}:{int(o.sick)}:{int(o.face_down)}"


def view_text(g: Game, p: int) -> str:
    """Everything a PlayerView shows of the position, as text."""
    v = g.view(p)
    parts: list[str] = []
    for q in (0, 1):
        parts.append(f"P{q} hand={v.hand_names(q)} host={_objname(v.host(q))}")
        parts.append(f" front={[_objname(x) for x in v.row(q, 'front')]}")
        parts.append(f" back={[_objname(x) for x in v.row(q, 'back')]}")
        parts.append(f" forms={[_objname(x) for x in v.forms(q)]}")
        dz = v.damage_zone(q)
        parts.append(f" dmg={None if dz is None else [_objname(x) for x in dz]}")
        parts.append(f" drop={[_objname(x) for x in v.drop(q)]} pool={sorted(v.pool(q).items())}")
        parts.append(f" ap={v.ap(q)} deck={v.count(q, 'deck')} hand#={v.count(q, 'hand')}")
    parts.append(f"stack={[(it.sid, it.source_name, None if c is None else c.name) for it, c in v.stack()]}")
    d = v.decision()
    if d is not None:
        parts.append(f"decision={d.player} {d.kind.value} {[str(a) for a in d.actions]} {d.prompt!r}")
    parts.append(f"choice={[_objname(x) for x in v.choice_cards()]}")
    parts.append(f"pending={[(t.card.name, t.ability) for t in v.my_pending()]}")
    parts.append(f"events={len(v.events)} last={[str(e) for e in v.events[-3:]]}")
    st = v.state
    objs = sorted((o.id, o.card.name, str(o.zone), o.slot, o.controller, o.owner, o.face_down,
                   o.damage, tuple((str(m.kind), str(m.stat), m.value) for m in o.mods))
                  for o in st.objs.values())
    parts.append(f"red.objs={objs}")
    parts.append(f"red.stack={[(it.sid, it.source_name, it.card.name, sorted(it.targets.items())) for it in st.stack]}")
    parts.append(f"red.decks={[list(pl.deck) for pl in st.players]} lists={[len(pl.decklist) for pl in st.players]}")
    parts.append(f"red.tasks={len(st.tasks)} rng={st.rng is None}")
    return "\n".join(parts)


def decision_text(g: Game) -> str:
    d = g.decision
    if d is None:
        return "none"
    return f"{d.player} {d.kind.value} {d.prompt!r} {[str(a) for a in d.actions]} {list(d.cards)}"


Chooser = Callable[[Game, int], Any]


def play(g: Game, choose: Chooser, views_every: int = 0, clone_at: tuple[int, ...] = ()) -> str:
    """Play to the end; return the hash of everything observed."""
    h = hashlib.sha256()
    actions: list[Any] = []
    clones: list[tuple[int, Game]] = []
    n = 0
    while not g.is_over:
        d = g.decision
        assert d is not None
        h.update(decision_text(g).encode())
        if views_every and n % views_every == 0:
            for p in (0, 1):
                h.update(view_text(g, p).encode())
        if n in clone_at:
            clones.append((len(actions), g.clone()))
        a = choose(g, n)
        h.update(str(a).encode())
        actions.append(a)
        g.apply(a)
        n += 1
    s = g.state
    for e in s.events:
        h.update(str(e).encode())
        h.update(str(e.redact(0)).encode())
        h.update(str(e.redact(1)).encode())
    h.update(f"{s.winner} {s.reason} {s.truncated} {s.turn} {n}".encode())
    log = [str(e) for e in s.events]
    for at, c in clones:
        for a in actions[at:]:
            c.apply(a)
        if [str(e) for e in c.state.events] != log:
            raise SystemExit(f"a clone taken at action {at} played on to a different log")
    return h.hexdigest()


def random_chooser(seed: int) -> Chooser:
    rng = random.Random(seed)
    return lambda g, n: rng.choice(g.legal_actions())


def agent_chooser(agents: list[Any]) -> Chooser:
    def choose(g: Game, n: int) -> Any:
        d = g.decision
        assert d is not None
        return agents[d.player].choose(g.view(d.player), d.actions)

    return choose


def engine_games(quick: bool) -> dict[str, str]:
    from agents.base import EngineAgent
    from agents.heuristic import HeuristicAgent
    from agents.ismcts import ISMCTSAgent
    from agents.random_agent import RandomAgent

    out: dict[str, str] = {}
    n_random = 40 if quick else 150
    for i in range(n_random):
        a, b = NAMES[i % len(NAMES)], NAMES[(i * 7 + 3) % len(NAMES)]
        variant = VARIANTS[i % len(VARIANTS)]
        cfg = RuleConfig().with_overrides(variant)
        g = new_game(a, b, cfg, seed=1000 + i)
        g.auto_pass = i % 3 == 2
        name = f"random/{i}/{a}-{b}/{json.dumps(variant, sort_keys=True)}/auto={g.auto_pass}"
        out[name] = play(g, random_chooser(i), views_every=7 if i % 2 == 0 else 0,
                         clone_at=(5, 60, 151) if i % 5 == 0 else ())
    n_heur = 12 if quick else 50
    for i in range(n_heur):
        a, b = NAMES[(i * 3) % len(NAMES)], NAMES[(i * 5 + 1) % len(NAMES)]
        cfg = RuleConfig().with_overrides(VARIANTS[(i * 2) % len(VARIANTS)])
        g = new_game(a, b, cfg, seed=5000 + i)
        mix: list[EngineAgent] = [HeuristicAgent(seed=i),
                                  HeuristicAgent(seed=i + 1) if i % 2 else RandomAgent(seed=i + 1)]
        out[f"heuristic/{i}/{a}-{b}"] = play(g, agent_chooser(mix), views_every=5, clone_at=(40,))
    n_search = 1 if quick else 3
    for i in range(n_search):
        a, b = NAMES[(i * 4 + 2) % len(NAMES)], NAMES[(i * 3 + 5) % len(NAMES)]
        g = new_game(a, b, RuleConfig(), seed=9000 + i)
        mix = [ISMCTSAgent(iterations=6, rollout_depth=15, seed=i), HeuristicAgent(seed=i)]
        out[f"ismcts/{i}/{a}-{b}"] = play(g, agent_chooser(mix), views_every=11)
    return out


def env_games(quick: bool) -> dict[str, str]:
    import numpy as np
    from pettingzoo import AECEnv

    from hostwcg_env import hostwcg_v0

    out: dict[str, str] = {}
    makers: tuple[Callable[[], AECEnv], ...] = (hostwcg_v0.env, hostwcg_v0.raw_env)
    for k, make in enumerate(makers):
        e = make()
        rng = random.Random(k)
        for ep in range(3 if quick else 10):
            h = hashlib.sha256()
            e.reset(seed=700 + ep)
            for agent in e.agent_iter():
                obs, rew, term, trunc, info = e.last()
                h.update(np.ascontiguousarray(obs["observation"]).tobytes())
                h.update(np.ascontiguousarray(obs["action_mask"]).tobytes())
                h.update(f"{agent} {rew} {term} {trunc}".encode())
                if term or trunc:
                    e.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[rng.randrange(len(legal))]))
            out[f"env/{make.__name__}/{ep}"] = h.hexdigest()
    return out


def fingerprint(quick: bool = False, env: bool = True) -> dict[str, str]:
    """``{game name: hash}`` of the engine games and, with ``env``, the env games."""
    result = engine_games(quick)
    if env:
        result.update(env_games(quick))
    return result


def differences(result: dict[str, str], want: dict[str, str], complete: bool = True) -> list[str]:
    """A line per game whose hash differs from ``want`` (``DIFFERS: name``) and, when ``result``
    is ``complete`` (not a quick or env-less run), per game of ``want`` it lacks (``MISSING``)."""
    bad = sorted(k for k in result if want.get(k) != result[k])
    missing = sorted(k for k in want if k not in result) if complete else []
    return [f"DIFFERS: {k}" for k in bad] + [f"MISSING: {k}" for k in missing]
