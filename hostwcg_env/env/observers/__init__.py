"""Observers: what makes one env version differ from another (docs/env.md "Observers").

Every version of the env plays the same game through the same AEC class
(``hostwcg_env.env.aec.HostAECEnv``), parallel wrapper and single-agent and vector stack
(``hostwcg_env.env.batch``); a version is the observer it is given, in OpenSpiel's sense:
the object that turns one player's ``PlayerView`` (and whatever that player may remember)
into its observation and maps the action space's indices to the legal actions of a
decision, and that declares which decisions the single-agent envs skip. ``v0`` and ``v1`` are one module
each; a v2 would be one more module with a class that satisfies ``Observer``.
"""

from .base import SKIPS, Observer, Row, Skip, WritesRows

__all__ = ["SKIPS", "Observer", "Row", "Skip", "WritesRows"]
