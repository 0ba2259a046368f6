"""Digests of kept games replayed: proof that a refactor left every kept game unchanged.

``digest_files(paths)`` replays each record of each results file (``analysis.replay``, which
already checks the winner, reason, turns and decision count) and hashes, for each game, every
event's full text and the text each player's view shows of it, and the actions in the notation.
Run it before a change and again after; ``compare`` names each game whose digest moved. The
texts are what records, logs and the terminal show, so equal digests mean the games read the
same, line for line, to the referee and to both players.

    python scripts/replay_digest.py agents/ladder_results/*.jsonl.gz --out runs/before.json
    python scripts/replay_digest.py agents/ladder_results/*.jsonl.gz --check runs/before.json
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

from hostwcg_env.analysis.records import Record, record_key
from hostwcg_env.analysis.replay import ReplayError, replay, replayable
from hostwcg_env.engine import ENGINE_EPOCH


def game_digest(rec: Record) -> str:
    """The SHA-256 of one replayed game's event texts, both views' texts and its actions."""
    game = replay(rec)
    h = hashlib.sha256()
    for event in game.events:
        h.update(str(event).encode())
        h.update(b"\n")
    for player in (0, 1):
        h.update(f"-- view {player}\n".encode())
        for text in game.view(player).events:
            h.update(str(text).encode())
            h.update(b"\n")
    for action in rec.get("actions") or []:
        h.update(str(action).encode())
        h.update(b"\n")
    return h.hexdigest()


def digest_files(paths: Iterable[str | Path]) -> dict[str, str]:
    """``{file#index:record-key: digest}`` for every record of ``paths`` that has actions; a
    record of an older decision epoch (which this engine cannot replay, and says so) gets
    ``"older epoch N"``, and one that no longer replays ``"replay failed: <why>"``."""
    out: dict[str, str] = {}
    for path in paths:
        for i, rec in enumerate(replayable([str(path)], warn=False)):
            key = f"{Path(path).name}#{i}:{record_key(rec)}"
            epoch = rec.get("epoch", 1)
            if epoch != ENGINE_EPOCH:
                out[key] = f"older epoch {epoch}"
                continue
            try:
                out[key] = game_digest(rec)
            except (ReplayError, ValueError) as e:
                out[key] = f"replay failed: {e}"
    return out


def compare(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """One line for each game missing, added, failing or with a different digest."""
    lines = [f"{k}: missing after" for k in before if k not in after]
    lines += [f"{k}: new after" for k in after if k not in before]
    for k, d in after.items():
        if k in before and before[k] != d:
            lines.append(f"{k}: {d}" if d.startswith("replay failed") else f"{k}: digest changed")
    return lines
