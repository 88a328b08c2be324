"""PyTorch ``torch.nn.functional.embedding_bag`` (2.13, CPU): sums, means or maxima of bags of embedding rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Policy, Reduction
from ...core.shape import IndexSpec, as_index_array, dtype_name
from ...errors import ArgumentError, DTypeError, ShapeError, UnsupportedError
from .._record import (
    Arg,
    Description,
    Mapper,
    OpRecord,
    Residual,
    Step,
    Version,
    canonical,
    check_bool,
    check_choice,
    check_int,
    real_ids,
)
from .._registry import Lowering, dialect_op, divergence_table
from .._segment import counts
from ._common import GRAD, INDEX_INT32_INT64, VERSION
from .embedding import _prepare, _renorm, refuse_max_norm

#: mode -> core reduction of the bag (mean: a sum divided by the bag's non-padding count); empty bags are 0
MODES: dict[str, Reduction] = {"sum": Reduction.ADD, "mean": Reduction.ADD, "max": Reduction.MAX}

divergence_table("torch.embedding_bag", r'''
[[divergence]]
case = "include_last_offset=True and offsets[-1] < len(input)"
when = "invalid"
reference = "torch 2.13 CPU"
theirs = """
the float32 sum/mean kernel ends the last bag at offsets[-1] (mean: but divides by len(input) - offsets[-2]); the \
other paths (float64, max) run the last bag to the end of input, ignoring offsets[-1]"""
ours = "the same as torch (documented: offsets[-1] should be len(input))"
evidence = """
observed: embedding_bag([0,1,2,3,1], w, [0,2,3], include_last_offset=True, mode='sum') sums rows 2, 3, 1 in \
float64 and row 2 only in float32"""
kind = "undefined"
not_reproducible = "ours does what torch does: the record documents torch's own inconsistency, not a difference"

[[divergence]]
case = "include_last_offset=True with a single offset (zero bags)"
when = "empty"
reference = "torch 2.13 CPU"
theirs = "corrupts the heap ('corrupted size vs. prev_size'; the process aborts or segfaults a few calls later)"
ours = "the documented result: an empty (0, embedding_dim) array"
evidence = """
observed: F.embedding_bag(tensor([2]), w, tensor([0]), mode='mean', include_last_offset=True), also with empty \
input and mode='sum'"""
kind = "undefined"
not_reproducible = "torch corrupts the heap: running it would crash the test process"

[[divergence]]
case = "max_norm given"
when = "always"
reference = "torch 2.13"
theirs = "renormalises the referenced rows of weight in place"
ours = "the caller's weight is never modified (gs.torch.embedding.renorm returns torch's weight afterwards)"
evidence = "torch.nn.functional.embedding_bag docs"
kind = "choice"
not_reproducible = "the difference is the caller's weight after the call, not the result"
''')


_CANON = {"sum": "add", "mean": "mean", "max": "max"}


def _describe(mode: str = "mean", include_last_offset: bool = False, padding_idx: Any = None, max_norm: Any = None,
              norm_type: float = 2.0, scale_grad_by_freq: bool = False, sparse: bool = False, form: str = "offsets",
              weighted: bool = False) -> Description:
    """Two primitives: the gather ``rows = weight[input]`` (``before``), then one nd scatter of the rows (times
    ``per_sample_weights`` when ``weighted``) into a zero canvas of one row per bag, each entry's bag read from
    ``offsets`` (``form='offsets'``, 1-D input) or its row (``form='batch'``, 2-D input); ``padding_idx``
    entries get the bag -1, which the scatter drops."""
    op = "torch.embedding_bag"
    check_choice(op, "mode", mode, tuple(MODES))
    check_choice(op, "form", form, ("offsets", "batch"))
    last = check_bool(op, "include_last_offset", include_last_offset)
    if check_bool(op, "weighted", weighted) and mode != "sum":
        raise UnsupportedError(f"translate {op}: per_sample_weights is only supported for mode='sum' (torch raises)")
    refuse_max_norm(op, max_norm)
    if form == "batch" and last:
        raise UnsupportedError(f"translate {op}: include_last_offset applies to offsets (form='offsets')")
    attrs: dict[str, Any] = {"mode": mode, "include_last_offset": last}
    pre: list[Step] = []
    rows = "rows"
    if weighted:
        pre += [Step.adapt("expand_dims", "psw", "per_sample_weights", axis=-1),
                Step.adapt("combine", "rows_w", "rows", "psw", reduction="mul", why="each row times its weight")]
        rows = "rows_w"
    if form == "offsets":
        pre.append(Step.adapt("segment_ids", "bag", "offsets", "input", axis=0, offsets=True,
                              why="the bag of each entry: #{b : offsets[b] <= j} - 1"))
        if last:
            pre.append(Step.adapt("slice_last", "starts", "offsets", start=1, why="offsets[-1] ends the last bag"))
        pre.append(Step.adapt("expand_dims", "bags", "starts" if last else "offsets", axis=-1))
    else:
        pre += [Step.adapt("row_ids", "bag", "input", why="one bag per row of input"),
                Step.adapt("slice_last", "bags", "input", start=-1, why="input[:, -1:]: one row per bag")]
    res: list[Residual] = []
    if form == "batch":
        res.append(Residual("empty", "a (B, 0) input gives B empty bags (zeros)", "refuses the shape"))
    if padding_idx is not None:
        attrs["padding_idx"] = check_int(op, "padding_idx", padding_idx)
        pre.append(Step.adapt("drop_index", "bag_p", "bag", "input", "weight", value=attrs["padding_idx"],
                              why="padding_idx entries belong to no bag"))
    pre += [Step.adapt("expand_dims", "tuples", "bag_p" if padding_idx is not None else "bag", axis=-1),
            Step.adapt("full_slices", "canvas", "bags", "weight", value=0, why="one zero row per bag (an empty bag "
                       "is 0)")]
    gather = canonical("gather", data="weight", indices="input", out="rows", axis=0, negative="raise",
                       bounds="raise")
    c = canonical("scatter_nd", data="canvas", indices="tuples", updates=rows, reduction=_CANON[mode],
                  include_self=mode == "sum", negative="bounds", bounds="drop")
    inputs = ("input", "weight") + (("offsets",) if form == "offsets" else ()) + (
        ("per_sample_weights",) if weighted else ())
    layout = {"k": 1, "data_shape": (None, None), "index_ndim": (1, 1) if form == "offsets" else (2, 2),
              "data_dtypes": ("float64", "float32"), "to_source": _bags(form, last, padding_idx, weighted)}
    return Description(op, attrs, inputs, c, pre=pre, residuals=res, layout=layout, before=[gather])


def _bags(form: str, last: bool, padding_idx: Any, weighted: bool) -> Mapper:
    """The canonical arrays as embedding_bag arguments: the scatter's updates give input's shape and the
    embedding size, its canvas the number of bags; a weight of 1-4 rows, in-range entries, offsets from 0."""

    def mapper(canon: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
        u, nb = canon["updates"], canon["data"].shape[0]
        shape = u.shape[:-1]
        n = int(rng.integers(1, 5))
        if padding_idx is not None:  # within num_embeddings (else the call is refused)
            n = max(n, padding_idx + 1 if padding_idx >= 0 else -padding_idx)
        w = (rng.integers(-9, 10, (n, u.shape[-1])) + rng.random((n, u.shape[-1]))).astype(u.dtype)
        inp = rng.integers(0, n, shape).astype(np.int64 if rng.random() < 0.7 else np.int32)
        args: dict[str, Any] = {"input": inp, "weight": w}
        if form == "offsets":
            nb = max(nb, 1) if last else nb  # a lone last offset (zero bags) must be 0: len(input) > 0 is refused
            starts = np.concatenate([[0], np.sort(rng.integers(0, shape[0] + 1, nb - 1))]) if nb else np.zeros(0)
            off = np.concatenate([starts, [shape[0]]]) if last else starts
            args["offsets"] = off.astype(inp.dtype)
            bag = np.sum(off[:, None] <= np.arange(shape[0]), axis=0) - 1
        else:
            bag = np.broadcast_to(np.arange(shape[0])[:, None], shape)
            nb = shape[0]
        if padding_idx is not None:
            bag = np.where(inp == padding_idx % n, -1, bag)
        if weighted:
            args["per_sample_weights"] = rng.random(shape).astype(u.dtype)
        real_ids(canon, bag, nb)
        return args

    return mapper


@dialect_op("torch", "embedding_bag", family="scatter_axis", kind="scatter", versions=(VERSION,),
            differentiable=("weight", "per_sample_weights"),
            record=OpRecord(_describe, args=(Arg("input", "indices"), Arg("weight", "data"), Arg("offsets", "indices"),
                                             Arg("per_sample_weights", "updates")),
                            versions=(Version(VERSION),), grad=GRAD,
                            values={"offsets": "array", "per_sample_weights": "array", "max_norm": "number",
                                    "norm_type": "number", "mode": tuple(MODES), "padding_idx": "int",
                                    "form": ("offsets", "batch")}))
def embedding_bag(
    input: Any,
    weight: Any,
    offsets: Any = None,
    max_norm: Any = None,
    norm_type: float = 2.0,
    scale_grad_by_freq: bool = False,
    mode: str = "mean",
    sparse: bool = False,
    per_sample_weights: Any = None,
    include_last_offset: bool = False,
    padding_idx: Any = None,
) -> Lowering:
    """torch.nn.functional.embedding_bag: the sum, mean or max of each bag of rows of ``weight``.

    Provenance: ``torch.nn.functional.embedding_bag(input, weight, offsets=None,
    max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean', sparse=False,
    per_sample_weights=None, include_last_offset=False, padding_idx=None)``, torch
    2.13 CPU. A 2-D ``input`` is one bag per row (``offsets`` must be None); a 1-D
    ``input`` needs 1-D ``offsets``: bag ``b`` is ``input[offsets[b]:offsets[b+1]]``
    (``offsets[0]`` must be 0; with ``include_last_offset`` the last offset ends the
    last bag, so there are ``len(offsets) - 1`` bags). Entries equal to
    ``padding_idx`` are left out (and not counted by ``'mean'``). Empty bags are 0
    in every mode. Weight dtypes: float16, bfloat16, float32, float64.
    ``per_sample_weights`` (``mode='sum'`` only, input's shape) scales each row
    before the sum. ``max_norm``: as :func:`embedding` (the caller's weight is
    never modified).

    Lowering (what ``embedding_bag.record.describe(...)`` states: a gather, then a
    scatter): the rows ``weight[input]`` (times ``per_sample_weights``) are the
    updates of one core ``scatter`` into zeros of shape ``(bags, embedding_dim)``
    along axis 0, indexed by each entry's bag (padding entries dropped): reduction
    add with ``include_self=True`` (sum), mean or max with ``include_self=False``
    (torch's float32 last-bag quirk: a sum divided afterwards).

    Equivalent loop::

        out = zeros((bags, weight.shape[1])); n = zeros(bags)
        for b, bag in enumerate(bags_of(input, offsets)):
            for j in bag:
                if input[j] == padding_idx: continue
                row = weight[input[j]] * (per_sample_weights[j] if given else 1)
                out[b] = row if n[b] == 0 and mode == 'max' else (max or +)(out[b], row); n[b] += 1
        if mode == 'mean': out /= max(n, 1)

    Differs from ``torch.segment_reduce`` (segments of ``data`` itself, no row
    lookup, empty max is -inf) and TF's ``embedding_lookup_sparse``.

    >>> import gatherscatter as gs
    >>> w = [[1.0, 2.0], [3.0, -4.0], [5.0, 6.0], [-7.0, 8.0]]
    >>> gs.torch.embedding_bag([0, 1, 2, 3, 1], w, [0, 2, 2], mode="sum").tolist()
    [[4.0, -2.0], [0.0, 0.0], [1.0, 10.0]]
    >>> gs.torch.embedding_bag([[0, 1], [2, 1]], w, mode="max").tolist()
    [[3.0, 2.0], [5.0, 6.0]]
    """
    ctx, w, idx = _prepare(input, weight, padding_idx)
    ctx = ctx.with_(op="torch.embedding_bag", updates="weight")
    if w.dtype.kind != "f" and dtype_name(w.dtype) != "bfloat16":
        raise DTypeError(
            f"{ctx.label}: Expected tensor for argument #1 'weight' to have one of the following scalar types: "
            f"Float, Double, Half, BFloat16; but got weight dtype {w.dtype}"
        )
    if not isinstance(mode, str) or mode not in MODES:
        raise UnsupportedError(f"{ctx.label}: mode has to be one of sum, mean or max (got {mode!r})")
    if not isinstance(include_last_offset, (bool, np.bool_)):
        raise ArgumentError(f"{ctx.label}: include_last_offset must be a bool (got {include_last_offset!r})")
    if idx.ndim == 2:
        if offsets is not None:
            raise ShapeError(
                f"{ctx.label}: if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                f"fixed length sequences"
            )
        nbags, width = idx.shape
        bag = np.repeat(np.arange(nbags, dtype=np.int64), width)
        last_count = None
    elif idx.ndim == 1:
        if offsets is None:
            raise ShapeError(f"{ctx.label}: offsets has to be a 1D Tensor but got None")
        off = as_index_array(ctx, offsets, "offsets", INDEX_INT32_INT64).astype(np.int64)
        if off.ndim != 1:
            raise ShapeError(f"{ctx.label}: offsets has to be a 1D Tensor (got shape {list(off.shape)})")
        if off.size and int(off[0]) != 0:
            raise ctx.index_rule_error(
                shown=str(int(off[0])), position=(0,), value=int(off[0]), name="offsets",
                rule=f"is not 0: offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                f"position 0. However, got {int(off[0])}",
            )
        if off.size and int(off[-1]) > idx.size:
            raise ctx.index_rule_error(
                shown=str(int(off[-1])), position=(off.size - 1,), value=int(off[-1]), name="offsets",
                rule=f"is past the input: offsets[-1] can not be greater than input's length {idx.size} but got "
                f"offsets[-1] of {int(off[-1])}",
            )
        if off.size > 1 and (np.diff(off) < 0).any():
            k = int(np.argmax(np.diff(off) < 0)) + 1
            raise ctx.index_rule_error(
                shown=str(int(off[k])), position=(k,), value=int(off[k]), name="offsets",
                rule=f"< offsets[{k - 1}] = {int(off[k - 1])}: offsets must be non-decreasing",
            )
        nbags = max(off.size - 1, 0) if include_last_offset else off.size
        end = idx.size
        last_count = None
        if include_last_offset and off.size and int(off[-1]) < idx.size and w.dtype == np.float32 and mode != "max":
            # torch's float32 sum/mean kernel (fbgemm) stops the last bag at offsets[-1]; its mean still divides
            # by the count up to the end of input. Every other path runs the last bag to the end of input.
            end = int(off[-1])
            if mode == "mean" and nbags:
                last_count = idx.size - int(off[nbags - 1])
        pos = np.arange(idx.size)
        bag = (np.searchsorted(off[:nbags], pos, side="right").astype(np.int64) - 1 if nbags
               else -np.ones(idx.size, np.int64))
        bag[pos >= end] = -1
    else:
        raise ShapeError(f"{ctx.label}: input has to be 1D or 2D Tensor, but got Tensor of dimension {idx.ndim}")
    flat = idx.reshape(-1)
    if padding_idx is not None:
        p = int(padding_idx) % w.shape[0]
        bag = np.where(flat == p, -1, bag)
    if max_norm is not None:
        w = _renorm(ctx, w, idx, max_norm, norm_type)
    rows = w[flat]
    if per_sample_weights is not None:
        if mode != "sum":
            raise UnsupportedError(
                f"{ctx.label}: embedding_bag: per_sample_weights was not None. per_sample_weights is only supported "
                f"for mode='sum' (got mode={mode!r})"
            )
        psw = np.asarray(per_sample_weights)
        if psw.shape != idx.shape:
            raise ShapeError(
                f"{ctx.label}: per_sample_weights must have the shape of input {list(idx.shape)} (got "
                f"{list(psw.shape)})"
            )
        if psw.dtype != w.dtype:
            raise ShapeError(f"{ctx.label}: per_sample_weights dtype {psw.dtype} must equal weight's {w.dtype}")
        rows = rows * psw.reshape(-1, 1)
    out = np.broadcast_to(np.zeros((), w.dtype), (nbags, w.shape[1]))
    red = MODES[mode]
    policy = Policy(bounds="drop", negative="bounds", reduction=red, include_self=mode == "sum")
    post = None
    if mode == "mean" and last_count is None:  # the canonical mean: an empty bag keeps the canvas's 0
        policy = policy.with_(reduction=Reduction.MEAN)
    elif mode == "mean":  # torch's float32 kernel with offsets[-1] < len(input) (see the divergence record)
        policy = policy.with_(include_self=True)

        def post(y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
            c = counts(bag, nbags)
            c[nbags - 1] = last_count
            c = np.maximum(c, 1).astype(y.dtype).reshape(-1, 1)
            np.divide(y, c, out=y)
            return y

    return Lowering("scatter", out, bag, IndexSpec(axis=0), policy, ctx, updates=rows, post=post)
