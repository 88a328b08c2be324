"""Target TFLite builtins (TF 2.21 ``tf.lite.Interpreter``; bad indices fail the invoke): GATHER, GATHER_ND (no
batch dims; it checks flat offsets only), else GATHER on the flattened data. No scatter into data: SCATTER_ND (a
sum into zeros) or UNSORTED_SEGMENT_* (they drop an id of -1) reduce the updates at int32 flat offsets, then the
data is combined where one lands; an overwrite keeps the update whose ``row_ids`` is its position's segment max
(min: the first). :func:`generate`: Python building the model in TF ops, converted with builtin ops only."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from ... import dialects as _d
from ...dialects._registry import get_op, qn
from ...errors import UnsupportedError
from ..adapters import PyVocab
from ..codegen import adapter_emitters, function_code
from ..codegen_python import TARGETS, TfApi, op_calls
from ._common import RAISE, Canonical, Mode, Names, Plan, Step, TargetPlan, include_self, settle  # noqa: F401

T = _d.tflite
DROP: dict[Any, Mode] = {None: ("bounds", "drop")}  # flat offsets -> -1, dropped by UNSORTED_SEGMENT_*
SEGMENT = {"add": T.UNSORTED_SEGMENT_SUM, "mul": T.UNSORTED_SEGMENT_PROD, "max": T.UNSORTED_SEGMENT_MAX,
           "min": T.UNSORTED_SEGMENT_MIN}


def plan(c: Canonical, names: Names, version: Any = None) -> TargetPlan:
    p, fam, b = Plan.start("tflite", c, names), c.family, c.batch_dims
    op = T.GATHER if fam == "gather" and not (c.bounds == "fill" and b and c.axis != b) else \
        T.GATHER_ND if fam == "gather_nd" and not b else None
    if op is not None:
        _, ad = p.policy(c := c.with_(indices=p.index_cast(c.indices, qn(op))), RAISE, None, target=qn(op))
        kw: dict[str, Any] = {"axis": c.axis, **({"batch_dims": b} if b else {})} if op is T.GATHER else {}
        p.gather_op(c, ad, qn(op), {"params": c.data, "indices": p.apply(ad)[0]}, **kw)
        if op is T.GATHER_ND and c.bounds == "raise":
            p.residual("out_of_range", "raises", "reads on past a component's axis while the flat offset is in range")
    elif not c.is_scatter:
        p.flat_gather(c, RAISE, qn(T.GATHER), ("params", "indices"), "GATHER_ND has no batch dims nor element-wise "
                      "form: GATHER reads the flattened data", flatten=True, axis=0)
    else:
        p.flat_scatter(c, DROP if c.bounds == "drop" else RAISE, "TFLite", "no scatter into data: write it flattened",
                       lambda c2, flat, off, u1, y: _scatter(p, c, c2.with_(out=y), flat, off, u1))
    used = sorted({s.name for s in p.tp.steps if s.kind == "op"})
    ok = sorted(frozenset.intersection(*(sys.modules[get_op(q).lower.__module__].DATA_DTYPES for q in used)))
    p.residual("dtype", "computes in its dtypes", f"{', '.join(used)} take {', '.join(ok)} only: the invoke fails"
               + ("; int64 means do not convert (no int64 FLOOR_DIV)" if c.reduction == "mean" else ""))
    p.residual("empty", "computes on empty inputs", "the interpreter refuses zero-size inputs ('Invalid tensor size')")
    return p.tp


def _scatter(p: Plan, c: Canonical, c2: Canonical, flat: str, off: str, u: str) -> None:
    if drop := c.bounds == "drop":
        off = p.adapt("mask_result", "off", off, p.adapt("valid_mask", "ok", off, flat, axis=0, why=""), lead=0,
                      value=-1, why="an update out of range gets the id -1: the segment ops drop it")
    i32 = p.adapt("cast", "i", off, dtype="int32", why="SCATTER_ND and the segment ops take int32 indices")
    tup, n = p.adapt("expand_dims", "i", i32, axis=-1, why="tuples"), p.adapt("shape_of", "n", flat, why="size")

    def call(data: str, _: str, upd: str, r: str, out: str) -> list[Step]:
        q, t, inc = Plan(c, p.names, TargetPlan("tflite", [])), p.names, r != "none" and include_self(c, r)

        def red(r: str, x: str) -> str:  # SCATTER_ND sums more dtypes, but rejects the id -1
            return q.op(qn(T.SCATTER_ND), t("t"), {"indices": tup, "updates": x, "shape": n}) if r == "add" and not \
                drop else q.op(qn(SEGMENT[r]), t("t"), {"data": x, "segment_ids": i32, "num_segments": n})

        hits = red("add", q.adapt("ones_like", "t", i32, why="how many updates land on each position"))
        if r == "none":  # the winner of each position: the last (first) update's position in the order
            order = q.adapt("cast", "t", q.adapt("row_ids", "t", upd, why=""), dtype="int32", why="")
            at = q.adapt("clip_index", "t", i32, flat, axis=0, why="") if drop else i32
            win = q.op(qn(T.GATHER), t("t"), {"params": red("min" if c.duplicates == "first" else "max", order),
                                              "indices": at})
            lost = q.adapt("combine", "t", win, order, reduction="sub", why="")
            upd, r = q.adapt("select", "t", lost, q.adapt("zeros_like", "t", upd, why=""), upd, why="winners"), "add"
        y = red(r, upd)
        q.adapt_to(out, "select", hits, q.adapt("combine", "t", data, y, reduction=r, why="") if inc else y, data,
                   why="the data where no update lands")
        return q.tp.steps

    p.reduce(c2, call, data=flat, indices=i32, updates=u, native=frozenset(SEGMENT) | {"none"},
             native_include_self=True)
    if c.duplicates != "first":
        p.duplicates(c, True, "TFLite")
    if c.reduction in ("max", "min"):  # the kernel: out = std::max(out, x) from lowest() (seen on TF 2.21)
        p.residual("nonfinite", f"propagates a NaN update ({c.reduction})", f"{qn(SEGMENT[c.reduction])} ignores it"
                   f" and starts from the finite limit: a segment of {'-+'[c.reduction == 'min']}inf only reads it")
    if c.include_self and c.reduction in ("add", "sub", "mul", "mean"):
        p.residual("duplicates", "combines the updates into the data one by one", "reduces the updates, then "
                   "combines them with the data once: float rounding may differ")


_RUN = """


def _tflite(fn, args):
    \"\"\"``fn`` traced for these arrays (others are constants), converted with builtin ops only, and run.\"\"\"
    keys = [k for k, v in args.items() if hasattr(v, "dtype")]
    spec = [tf.TensorSpec(np.shape(args[k]), np.asarray(args[k]).dtype, name=k) for k in keys]
    f = tf.function(lambda *ts: fn(**{**args, **dict(zip(keys, ts))}), input_signature=spec, autograph=False)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()], f)
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS]
    it = tf.lite.Interpreter(model_content=conv.convert())
    it.allocate_tensors()
    for d in it.get_input_details():
        it.set_tensor(d["index"], np.asarray(args[d["name"]]))
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])"""
_LIT = """def _lit(v, like):
    \"\"\"``v`` in ``like``'s dtype; +-inf as +-1 / (a zero it cannot fold): TFLite stores +-inf as +-FLT_MAX.\"\"\"
    if not (tf.as_dtype(like.dtype).is_floating and np.isinf(v)):
        return tf.cast(np.asarray(v), like.dtype)
    zero = tf.cast(tf.reduce_any(tf.math.is_nan(like) & tf.math.is_finite(like)), like.dtype)
    return tf.cast(np.sign(v), like.dtype) / zero
"""


class _Vocab(PyVocab):
    """TF's, but a literal known when tracing (a reduction's identity: maybe +-inf) is ``_lit(value, like)``."""

    def lit(self, value: Any, like: str) -> str:
        return f"_lit({value}, {like})" if isinstance(value, str) else super().lit(value, like)

    def limit(self, x: str, reduction: str) -> str:
        m = "min" if reduction == "max" else "max"  # numpy's: TFLite computes float32 and int32 only
        return f"(np.finfo if {x}.dtype.is_floating else np.iinfo)({x}.dtype.as_numpy_dtype).{m}"


_ADAPTERS = adapter_emitters(_Vocab(TfApi()))


def generate(t: Any) -> str:
    """Python: ``translated(<source inputs>)`` in TF ops; called eagerly, it traces itself for the call's shapes
    and dtypes, converts (``TFLITE_BUILTINS`` only) and runs the model in ``tf.lite.Interpreter``."""
    if any(s.name == "segment_count" for s in t.steps):
        raise UnsupportedError(f"codegen tflite: {t.source.op}'s output size is a value of its ids (segment_count): "
                               "the model is traced with static shapes (the plan runs; use the unsorted op)")
    tf, args = TARGETS["tensorflow"], ", ".join(f"{k}={k}" for k in t.source.inputs)
    run = ["if not tf.inside_function():  # eager: trace, convert, run", f"    return _tflite(translated, "
           f"dict({args}))"]
    tgt = replace(tf, name="tflite", header=tf.header + _RUN, ops=op_calls("tflite"), prologue=lambda _: run,
                  helpers={**tf.helpers, "_lit": _LIT}, adapters=_ADAPTERS)
    return function_code(tgt, t.source.inputs, t.steps, t.program.output, f"{t.source.op} as a TFLite model.")
