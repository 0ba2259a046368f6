"""Scenario files: set up any position, script actions, check expectations (docs/scenarios.md)."""

from .builder import ScenarioError, setup_game
from .checks import check_expect, get_value
from .runner import Result, ScriptError, run_doc, run_file, run_line

__all__ = ["Result", "ScenarioError", "ScriptError", "check_expect", "get_value", "run_doc",
           "run_file", "run_line", "setup_game"]
