"""The shipped policies as ONNX graphs, for game clients and servers that do not run Python:
``hostwcg export ppo_v1 --onnx FILE`` (``docs/export.md``).

The graph is built node by node with ``onnx.helper`` from the numpy weights (the same arrays
``agents/set_policy.py`` and ``agents/ppo.py`` run), so exporting needs the ``onnx`` package
alone: no torch, and no trained ``.zip``. Each graph takes a batch of observations exactly as
the env gives them (the same names, shapes and dtypes) and returns

* ``logits`` (B, N) float32: the network's logits of the legal actions (``action_mask`` 1),
  minus infinity elsewhere;
* ``action`` (B,) int64: the most probable legal action (the lowest index on a tie, as numpy's
  ``argmax``; 0 where no action is legal);
* ``value`` (B,) float32 (``ppo_v1`` only): the value head's estimate.

``ppo_v1`` (``set_policy_graph``) is the hostwcg_v1 set network (``NumpySetPolicy.forward``)
over the eleven arrays of a hostwcg_v1 observation; its variable sizes (card rows, history
entries, actions) are free axes, so one file serves every table size the weights were trained
for. It computes every row and action densely where numpy gathers the ones in use; the legal
actions' logits agree to float rounding (``tests/test_export_onnx.py``). ``ppo``
(``mlp_policy_graph``) is the hostwcg_v0 MLP (``NumpyPolicy.logits``) over ``observation``
and ``action_mask``.

The graph is the network alone. What ``make_agent`` adds around it stays with the caller:
the guard (``agents/sensible.py``) is a narrower ``action_mask``, and ``ppo_v1``'s stalled-
board attacks, learned check (weights with ``check.*``) and ``:look`` search are not in it.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

OPSET = 17
V1_INPUTS: dict[str, tuple[str, tuple[str, ...]]] = {  # name: (dtype, axes), as hostwcg_v1 observes
    "cards": ("float32", ("batch", "rows", "features")),
    "card_id": ("int32", ("batch", "rows")),
    "card_zone": ("int32", ("batch", "rows")),
    "globals": ("float32", ("batch", "globals")),
    "history": ("int32", ("batch", "history", "fields")),
    "action_mask": ("int8", ("batch", "actions")),
    "action_kind": ("int32", ("batch", "actions")),
    "action_arg": ("int32", ("batch", "actions")),
    "action_card": ("int32", ("batch", "actions")),
    "action_source_row": ("int32", ("batch", "actions")),
    "action_target_row": ("int32", ("batch", "actions")),
}
V0_INPUTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "observation": ("float32", ("batch", "size")),
    "action_mask": ("int8", ("batch", "actions")),
}


def _onnx() -> Any:
    try:
        import onnx
    except ImportError:
        raise ImportError("exporting to ONNX needs the onnx package: pip install 'hostwcg[export]'") from None
    return onnx


class _Graph:
    """A small builder over ``onnx.helper``: nodes get fresh output names, arrays become
    initializers."""

    def __init__(self) -> None:
        self.onnx = _onnx()
        self.nodes: list[Any] = []
        self.inits: list[Any] = []
        self._n = 0

    def const(self, value: Any, dtype: Any = np.float32, name: str | None = None) -> str:
        name = name or self._name("c")
        self.inits.append(self.onnx.numpy_helper.from_array(np.asarray(value, dtype=dtype), name))
        return name

    def op(self, kind: str, *inputs: str, out: str | None = None, **attrs: Any) -> str:
        out = out or self._name(kind.lower())
        self.nodes.append(self.onnx.helper.make_node(kind, list(inputs), [out], **attrs))
        return out

    def _name(self, stem: str) -> str:
        self._n += 1
        return f"{stem}_{self._n}"

    def linear(self, x: str, w: np.ndarray, b: np.ndarray, name: str) -> str:
        """x @ w.T + b (w as torch stores it: out x in)."""
        y = self.op("MatMul", x, self.const(np.ascontiguousarray(np.asarray(w, np.float32).T), name=f"{name}.wT"))
        return self.op("Add", y, self.const(b, name=f"{name}.bias"))

    def model(self, inputs: dict[str, tuple[str, tuple[str, ...]]], outputs: list[tuple[str, int, list[str]]],
              doc: str, meta: dict[str, str]) -> Any:
        h, tp = self.onnx.helper, self.onnx.TensorProto
        types = {"float32": tp.FLOAT, "int32": tp.INT32, "int8": tp.INT8, "int64": tp.INT64}
        graph = h.make_graph(
            self.nodes, "hostwcg_policy",
            [h.make_tensor_value_info(n, types[t], list(axes)) for n, (t, axes) in inputs.items()],
            [h.make_tensor_value_info(n, t, axes) for n, t, axes in outputs],
            initializer=self.inits, doc_string=doc)
        model = h.make_model(graph, opset_imports=[h.make_opsetid("", OPSET)], producer_name="hostwcg")
        model.ir_version = min(model.ir_version, 8)  # readable by onnxruntime releases from 1.11 on
        h.set_model_props(model, meta)
        self.onnx.checker.check_model(model)
        return model


def _masked(g: _Graph, logits: str, mask: str) -> tuple[str, str]:
    """(-inf outside the mask, the argmax): ``logits``/``action`` outputs."""
    legal = g.op("Cast", mask, to=g.onnx.TensorProto.BOOL)
    out = g.op("Where", legal, logits, g.const(-np.inf), out="logits")
    return out, g.op("ArgMax", out, axis=1, keepdims=0, out="action")


def set_policy_graph(weights: dict[str, np.ndarray], meta: dict[str, str] | None = None) -> Any:
    """The ONNX model of a hostwcg_v1 set policy's network (``NumpySetPolicy.forward``, greedy
    action as ``predict``), from its numpy weights."""
    from .set_policy import NumpySetPolicy

    pol = NumpySetPolicy(weights)
    w = pol.w
    dim, emb = pol.dim, pol.emb
    g = _Graph()
    i64 = g.onnx.TensorProto.INT64

    def emb_table(name: str) -> tuple[str, int]:
        table = w[f"enc.{name}.weight"]
        return g.const(table, name=f"enc.{name}.weight"), table.shape[0]

    tables = {n: emb_table(n) for n in ("card_emb", "zone_emb", "hist_kind", "hist_actor", "act_kind", "act_arg")}

    def lookup(table: str, idx: str) -> str:
        """Rows of an embedding; an index outside the table (an unused action's) is clipped."""
        t, n = tables[table]
        return g.op("Gather", t, g.op("Clip", idx, g.const(0, np.int64), g.const(n - 1, np.int64)), axis=0)

    def as64(name: str) -> str:
        return g.op("Cast", name, to=i64)

    # card rows: the shared encoder on every row; a row not in use reads as numpy's "empty" row
    cid, zone = as64("card_id"), as64("card_zone")
    x = g.op("Concat", "cards", g.op("Add", lookup("card_emb", cid), lookup("zone_emb", zone)), axis=-1)
    h_rows = g.op("Relu", g.linear(g.op("Relu", g.linear(x, w["enc.row1.weight"], w["enc.row1.bias"], "enc.row1")),
                                   w["enc.row2.weight"], w["enc.row2.bias"], "enc.row2"))
    empty = np.zeros((1, w["enc.row1.weight"].shape[1]), np.float32)
    empty[0, -emb:] = w["enc.card_emb.weight"][0] + w["enc.zone_emb.weight"][0]
    h_empty = np.maximum(np.maximum(empty @ w["enc.row1.weight"].T + w["enc.row1.bias"], 0)
                         @ w["enc.row2.weight"].T + w["enc.row2.bias"], 0)[0]
    used = g.op("Greater", zone, g.const(0, np.int64))
    h = g.op("Where", g.op("Unsqueeze", used, g.const([-1], np.int64)), h_rows, g.const(h_empty))
    # the mean of each zone's rows, zone by zone (B, zones * dim)
    onehot = g.op("Cast", g.op("Equal", g.op("Unsqueeze", zone, g.const([-1], np.int64)),
                               g.const(np.arange(1, pol.n_zones + 1), np.int64)), to=g.onnx.TensorProto.FLOAT)
    sums = g.op("MatMul", g.op("Transpose", onehot, perm=[0, 2, 1]), h)
    counts = g.op("Max", g.op("ReduceSum", onehot, g.const([1], np.int64), keepdims=0), g.const(1.0))
    pooled = g.op("Reshape", g.op("Div", sums, g.op("Unsqueeze", counts, g.const([-1], np.int64))),
                  g.const([0, -1], np.int64))
    # the history: the mean of its entries' embeddings
    hist = as64("history")

    def field(i: int) -> str:
        return g.op("Gather", hist, g.const(i, np.int64), axis=2)

    kind = field(0)
    hx = g.op("Add", g.op("Add", lookup("hist_kind", kind), lookup("hist_actor", field(1))),
              g.op("Add", lookup("card_emb", field(2)), lookup("card_emb", field(3))))
    present = g.op("Unsqueeze", g.op("Cast", g.op("Greater", kind, g.const(0, np.int64)),
                                     to=g.onnx.TensorProto.FLOAT), g.const([-1], np.int64))
    hvec = g.op("Div", g.op("ReduceSum", g.op("Mul", hx, present), g.const([1], np.int64), keepdims=0),
                g.op("Max", g.op("ReduceSum", present, g.const([1], np.int64), keepdims=0), g.const(1.0)))
    s_in = g.op("Concat", pooled, "globals", hvec, axis=-1)
    s = g.op("Relu", g.linear(g.op("Relu", g.linear(s_in, w["enc.state1.weight"], w["enc.state1.bias"], "enc.state1")),
                              w["enc.state2.weight"], w["enc.state2.bias"], "enc.state2"))
    # every action: its embeddings and the vectors of its source and target rows
    a = g.op("Add", g.op("Add", lookup("act_kind", as64("action_kind")), lookup("act_arg", as64("action_arg"))),
             lookup("card_emb", as64("action_card")))

    def row_vector(rows: str) -> str:
        r = as64(rows)
        idx = g.op("Unsqueeze", g.op("Max", r, g.const(0, np.int64)), g.const([-1], np.int64))
        shape = g.op("Concat", g.op("Shape", r), g.const([dim], np.int64), axis=0)
        picked = g.op("GatherElements", h, g.op("Expand", idx, shape), axis=1)
        has = g.op("Cast", g.op("GreaterOrEqual", r, g.const(0, np.int64)), to=g.onnx.TensorProto.FLOAT)
        return g.op("Mul", picked, g.op("Unsqueeze", has, g.const([-1], np.int64)))

    av = g.op("Relu", g.linear(g.op("Concat", a, row_vector("action_source_row"), row_vector("action_target_row"),
                                    axis=-1), w["enc.act1.weight"], w["enc.act1.bias"], "enc.act1"))
    q = g.op("Unsqueeze", g.linear(s, w["enc.query.weight"], w["enc.query.bias"], "enc.query"), g.const([1], np.int64))
    dot = g.op("Div", g.op("ReduceSum", g.op("Mul", av, q), g.const([-1], np.int64), keepdims=0),
               g.const(math.sqrt(dim)))
    pref = g.linear(av, w["enc.pref.weight"], w["enc.pref.bias"], "enc.pref")
    logits = g.op("Add", dot, g.op("Squeeze", pref, g.const([-1], np.int64)))
    if pol.head:  # the action MLP
        sa = g.op("Expand", g.op("Unsqueeze", s, g.const([1], np.int64)), g.op("Shape", av))
        h1 = g.op("Relu", g.linear(g.op("Concat", av, sa, g.op("Mul", av, sa), axis=-1),
                                   w["enc.head1.weight"], w["enc.head1.bias"], "enc.head1"))
        h2 = g.linear(h1, w["enc.head2.weight"], w["enc.head2.bias"], "enc.head2")
        logits = g.op("Add", logits, g.op("Squeeze", h2, g.const([-1], np.int64)))
    _masked(g, logits, "action_mask")
    g.op("Squeeze", g.linear(s, w["value.weight"], w["value.bias"], "value"), g.const([-1], np.int64), out="value")
    tp = g.onnx.TensorProto
    return g.model(V1_INPUTS, [("logits", tp.FLOAT, ["batch", "actions"]), ("action", tp.INT64, ["batch"]),
                               ("value", tp.FLOAT, ["batch"])],
                   "hostwcg_v1 set policy network (agents/set_policy.py); docs/export.md", meta or {})


def mlp_policy_graph(weights: dict[str, np.ndarray], n_actions: int | None = None,
                     meta: dict[str, str] | None = None) -> Any:
    """The ONNX model of a hostwcg_v0 MLP policy (``NumpyPolicy``), from its numpy weights.
    A head with fewer outputs than ``n_actions`` (a checkpoint from before a block grew at the
    end) is padded as ``NumpyPolicy.act`` pads it."""
    from .ppo import NumpyPolicy

    pol = NumpyPolicy(weights)
    g = _Graph()
    x = "observation"
    for i, (w, b) in enumerate(pol.layers):
        x = g.linear(x, w, b, f"pi.{i}")
        x = g.op("Tanh" if pol.activation == "tanh" else "Relu", x)
    w, b = pol.head
    if n_actions is not None and w.shape[0] < n_actions:
        pad = n_actions - w.shape[0]
        w = np.concatenate([w, np.zeros((pad, w.shape[1]), np.float32)])
        b = np.concatenate([b, np.full(pad, -1e9, np.float32)])
    _masked(g, g.linear(x, w, b, "action"), "action_mask")
    tp = g.onnx.TensorProto
    return g.model(V0_INPUTS, [("logits", tp.FLOAT, ["batch", "actions"]), ("action", tp.INT64, ["batch"])],
                   "hostwcg_v0 MLP policy (agents/ppo.py); docs/export.md", meta or {})


def export(agent: str, path: str | Path) -> tuple[Path, str]:
    """Write the network of ``agent`` (``ppo_v1``, ``ppo_v1:PATH.npz``, ``ppo``, ``ppo:PATH``
    with a ``.npz`` or a Stable-Baselines3 ``.zip``) as ONNX to ``path``. Returns the path and
    a line saying what was written."""
    from hostwcg_env import __version__

    base, _, arg = agent.partition(":")
    build: Callable[..., Any]
    if base == "ppo_v1":
        from .set_agent import DEFAULT_V1
        from .set_policy import load_weights

        if arg and not arg.endswith(".npz"):
            raise ValueError(f"{agent}: write ppo_v1 or ppo_v1:PATH.npz (the graph is the network alone: "
                             "flags such as :look or :raw do not apply)")
        src = Path(arg) if arg else DEFAULT_V1
        if not src.is_file():
            raise ValueError(f"{agent}: no weights file {src}")
        weights = load_weights(src)
        build = set_policy_graph
        has_check = any(k.startswith("check.") for k in weights)
        extra = "; its learned check (check.*) is not in the graph" if has_check else ""
    elif base == "ppo":
        from .ppo import DEFAULT
        from .ppo import load_weights as load_v0

        if arg in ("raw",) or arg.endswith(":raw"):
            raise ValueError(f"{agent}: write ppo or ppo:PATH (the graph is the network alone, no guard)")
        src = Path(arg) if arg else DEFAULT
        if not src.is_file():
            raise ValueError(f"{agent}: no weights file {src}")
        weights = load_v0(src)
        build = mlp_policy_graph
        extra = ""
    else:
        raise ValueError(f"{agent}: only the learned policies export: ppo_v1[:PATH.npz] or ppo[:PATH]")
    meta = {"hostwcg_version": __version__, "agent": agent, "weights": src.name,
            "weights_sha256": hashlib.sha256(src.read_bytes()).hexdigest()}
    model = build(weights, meta=meta)
    out = Path(path)
    if out.parent and not out.parent.is_dir():
        raise ValueError(f"--onnx {out}: no folder {out.parent}")
    _onnx().save(model, str(out))
    names = ", ".join(i.name for i in model.graph.input)
    outs = ", ".join(o.name for o in model.graph.output)
    return out, (f"wrote {out} ({out.stat().st_size:,} bytes): the {base} network of {src.name}, "
                 f"inputs {names}; outputs {outs}{extra}")


__all__ = ["OPSET", "V0_INPUTS", "V1_INPUTS", "export", "mlp_policy_graph", "set_policy_graph"]
