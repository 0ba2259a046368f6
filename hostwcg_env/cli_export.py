"""``hostwcg export AGENT --onnx FILE``: a learned policy's network as an ONNX graph for game
clients and servers (``agents/export_onnx.py``, ``docs/export.md``)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from hostwcg_env.cli_input import out_file


def add_parser(sub: Any) -> None:
    ex = sub.add_parser(
        "export", help="write a learned policy's network as ONNX for game clients (docs/export.md)",
        description="Write the network of ppo_v1 (the shipped hostwcg_v1 set policy, or ppo_v1:PATH.npz) or ppo "
                    "(the hostwcg_v0 MLP, or ppo:PATH) as an ONNX graph built from its numpy weights: inputs "
                    "the env's observation arrays, outputs the masked logits, the greedy action (and ppo_v1's "
                    "value). The guard and search that make_agent adds are not in it. Needs the export extra "
                    "(pip install 'hostwcg[export]').")
    ex.add_argument("agent", metavar="AGENT", help="ppo_v1, ppo_v1:PATH.npz, ppo or ppo:PATH (.npz or a trained .zip)")
    ex.add_argument("--onnx", type=out_file, required=True, metavar="FILE", help="the ONNX file to write")
    ex.set_defaults(func=cmd_export)


def cmd_export(args: argparse.Namespace) -> int:
    from agents.export_onnx import export

    try:
        _path, line = export(args.agent, args.onnx)
    except (ValueError, ImportError) as e:
        print(f"hostwcg export: {e}", file=sys.stderr)
        return 2
    print(line)
    return 0
