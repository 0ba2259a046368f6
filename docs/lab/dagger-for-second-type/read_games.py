"""Read the games of docs/lab/2026-11-29-dagger-from-ppo-v1-for-second-type.md: for each file of
seat-swapped games (a network against one opponent), the network's score, how often it took
`ap any` (2 # for a resource of another type, 11.3.3) a game, and its play rate of each card of
a type other than its Host's (Tamsin's Strife cards, Mirela's Emotion cards).

    python docs/lab/dagger-for-second-type/read_games.py FILE.jsonl [...]

Each file is read alone, then (given several) all of them together. The network is the side
whose agent name holds a colon (``ppo_v1:PATH``).
"""

from __future__ import annotations

import sys
from collections import Counter

from hostwcg_env.analysis.recordfile import iter_records
from hostwcg_env.analysis.replay import replay
from hostwcg_env.analysis.skill import record_play_rates
from hostwcg_env.analysis.stats import wilson

SECOND_TYPE = {  # the cards the lab note found ppo_v1 never or rarely plays for want of `ap any`
    "tamsin_wild_pack": ["Bloodhound", "Imp Caller", "Gravel Brute", "Blood Altar", "Quick Cinders", "Skull Fire",
                         "Serrated Axe", "Spiked Gauntlets", "Bloodlust Banner"],
    "mirela_blood_and_tears": ["Mind Leech", "Tearful Seer", "Creeping Corrosion"],
}


def read(paths: list[str]) -> None:
    recs = [r for path in paths for r in iter_records(path, warn=False)]
    path = " + ".join(paths)
    me = next(a for a in recs[0]["agents"] if ":" in a)  # the network: ppo_v1:PATH
    won = sum(0.5 if r.get("winner") is None else float(r["agents"][r["winner"]] == me) for r in recs)
    p, lo, hi = wilson(won, len(recs))
    taken: Counter[str] = Counter()
    for r in recs:
        seat = r["agents"].index(me)

        def count(game, i, action, r=r, seat=seat):  # noqa: ANN001, ANN202
            if game.decision.player == seat and r["actions"][i].startswith("ap any"):
                taken[r["decks"][seat]["id"]] += 1

        replay(r, before_step=count)
    rates = record_play_rates(recs, me)
    with_two = sum(r["decks"][r["agents"].index(me)]["id"] in SECOND_TYPE for r in recs)
    print(f"{path}: {len(recs)} games, the network won {p:.1%} [{lo:.1%}, {hi:.1%}]; "
          f"`ap any` {sum(taken.values()) / len(recs):.2f} a game ({dict(taken)}), "
          f"{sum(taken[d] for d in SECOND_TYPE) / max(1, with_two):.2f} a game of its {with_two} with Tamsin or Mirela")
    for deck, cards in SECOND_TYPE.items():
        cells = [f"{c} {rates[(deck, c)][0]:.0%}/{rates[(deck, c)][1]}" for c in cards if (deck, c) in rates]
        print(f"  {deck}: " + ", ".join(cells))


if __name__ == "__main__":
    for f in sys.argv[1:]:
        read([f])
    if len(sys.argv) > 2:  # and every file's games together
        read(sys.argv[1:])
