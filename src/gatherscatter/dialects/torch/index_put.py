"""PyTorch ``torch.index_put`` (2.13): ``input[indices] = values`` as a new array."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.policy import Duplicates, Policy, Reduction, parse_enum
from ...core.shape import IndexSpec, as_array, dtype_name, prod
from ...errors import ArgumentError, DTypeError, IndexOutOfRangeError, ShapeError, UnsupportedError
from .._common import DUPLICATES, data_array, first_true
from .._record import Description, Step, canonical, check_bool, tuple_index_args
from .._registry import Lowering, divergence_table
from ._common import INDEX_INT32_INT64, VERSION, as_bool, check_dtype, src_array, to_scalar, torch_context
from ._describe import _BOOL_MASK, _INT, torch_op

divergence_table("torch.index_put", r'''
[[divergence]]
case = "duplicate index tuples with accumulate=False"
when = "duplicates"
reference = "torch 2.13 CPU with several threads"
theirs = """
'undefined'; CPU kernels split large inputs across threads: last-wins in only 9 of 20 runs of 200k updates into 16 \
slots; single-threaded, the last in the memory order of the (possibly non-contiguous) index and values tensors \
wins, which is row-major for contiguous ones"""
ours = "duplicates='last' (row-major order of the broadcast indices), deterministic; 'first' or 'raise' on request"
evidence = """
docs/behavior-matrix.md#surprise-5 and docs/behavior-matrix.md#t6-9; docs/semantics.md#s6-4 and \
docs/semantics.md#s11-2"""
kind = "undefined"
not_reproducible = """
nondeterministic: needs hundreds of thousands of updates on several threads, and small inputs agree"""

[[divergence]]
case = "a 0-d bool index (indices=(True,) or (False, ...))"
when = "scalar"
reference = "torch 2.13 CPU"
theirs = "alone: 'ntensor >= 3 INTERNAL ASSERT FAILED'; together with other index tensors: silently ignored"
ours = "UnsupportedError: use a 1-d mask or reshape the input"
evidence = "torch 2.13.0 CPU runs (index_put((tensor(True),), v) and index_put((tensor(True), tensor([0, 2])), v))"
kind = "undefined"
[divergence.example]
call = "torch.index_put"
args = { input = [1, 2, 3], indices = [true], values = [5, 6, 7] }
dtypes = { input = "float32", indices = "tuple:bool", values = "float32" }
theirs = { raises = "RuntimeError" }
ours = { raises = "UnsupportedError" }

[[divergence]]
case = "uint8 index tensors"
when = "dtype"
reference = "torch 2.13 CPU"
theirs = """
read as deprecated byte masks (UserWarning) when values has dims; 'masked_fill_ only supports boolean masks' when \
values is 0-d"""
ours = "DTypeError: indices must be int32, int64 or bool (pass a bool mask)"
evidence = "torch 2.13.0 CPU runs; docs/behavior-matrix.md#t6-5 'index dtypes' (u8 rejected)"
kind = "choice"
[divergence.example]
call = "torch.index_put"
args = { input = [1, 2, 3], indices = [[1, 0, 1]], values = 5 }
dtypes = { input = "float32", indices = "tuple:uint8", values = "float32" }
theirs = { raises = "RuntimeError" }
ours = { raises = "DTypeError" }
''')


def _check_bounds(ctx: Any, j: int, arr: np.ndarray[Any, Any], dim: int, s: int) -> None:
    """Raise for the first entry of ``indices[j]`` outside ``[-s, s-1]`` (row-major)."""
    a = arr.astype(np.int64, copy=False)
    bad = (a < -s) | (a >= s)
    if not bad.any():
        return
    pos, value = first_true(bad, arr)
    where = f"indices[{j}]" + (f"[{', '.join(map(str, pos))}]" if pos else "")
    # checked per index entry, before the entries broadcast: the position is the caller's
    raise ctx.index_error(value=value, position=(j, *pos), size=s, axis=dim, lo=-s, where=where)


def _describe(accumulate: bool = False) -> Description:
    """``indices`` is a tuple of integer index arrays (bool masks: the ``dtype`` residual)."""
    accumulate = check_bool("torch.index_put", "accumulate", accumulate)
    pre = [Step.adapt("stack_last", "tuples", "indices", why="one index tuple per broadcast position "
                                                             "(docs/semantics.md#e12)"),
           Step.adapt("broadcast_updates", "upd", "values", "tuples", "input",
                      why="values broadcast to input[indices]")]
    c = canonical("scatter_nd", data="input", indices="tuples", updates="upd",
                  reduction="add" if accumulate else "none", duplicates_specified=accumulate)
    res = [_BOOL_MASK]
    return Description("torch.index_put", {"accumulate": accumulate}, ("input", "indices", "values"), c, pre=pre,
                  residuals=res, layout={"index_dtypes": _INT, "to_source": tuple_index_args(
                      "input", "indices", "values", broadcast=0.3)})


@torch_op(
    "index_put", family="scatter_nd", kind="scatter", differentiable=("input", "values"), describe=_describe,
    fuzz={"tuple_index": True}, variants=({}, {"accumulate": True}), values={"duplicates": DUPLICATES},
)
def index_put(input: Any, indices: Any, values: Any, accumulate: bool = False, *, duplicates: str = "last") -> Lowering:
    """torch.index_put: ``input[indices] = values`` (or ``+=`` with ``accumulate``), on a copy.

    Provenance: ``torch.index_put(input, indices, values, accumulate=False)`` /
    ``Tensor.index_put_``, torch 2.13 CPU. ``indices`` is a tuple (or list) of
    index arrays addressing the leading dims of ``input``, as torch advanced
    indexing: int32/int64 arrays (one dim each; negative indices wrap once,
    outside ``[-s, s-1]`` raises) and bool masks (a k-d mask addresses k dims and
    must match their sizes; it stands for its ``nonzero()`` positions). The index
    arrays broadcast together to ``B``; the result of ``input[indices]`` has shape
    ``B + input.shape[k:]`` and ``values`` must broadcast to it (no extra leading
    dims, as in torch). ``values`` given as an array must have ``input``'s dtype,
    except in torch's ``masked_fill_`` fast path (one bool mask, no
    ``accumulate``, one value): then any one-element ``values`` is converted
    like a Python number.
    ``None`` entries, 0-d bool and uint8 indices are refused (torch's functional
    form has no ``None``; see the divergence records for the other two).

    ``accumulate=True`` adds every value (duplicates accumulate, row-major order,
    bool adds are or). Without it duplicates are undefined in torch; we apply the
    updates in row-major order so the last wins (``duplicates='first'`` or
    ``'raise'`` on request).

    Equivalent loop::

        out = copy(input); I = broadcast(indices as integer arrays)
        for b in ndindex(B):
            t = tuple(I_j[b] + s_j if I_j[b] < 0 else I_j[b] for j)
            out[t] = values_b[b] (+ out[t] if accumulate)

    Differs from ONNX ``ScatterND`` (one stacked index tensor, no broadcasting,
    no bool masks) and NumPy ``a[idx] += v`` (applies duplicates once).

    >>> import gatherscatter as gs
    >>> gs.torch.index_put([0.0, 0.0, 0.0], ([-1, -1, 2],), [1.0, 2.0, 4.0], accumulate=True).tolist()
    [0.0, 0.0, 7.0]
    >>> gs.torch.index_put([[0, 0], [0, 0]], ([True, False], [1]), 5).tolist()
    [[0, 5], [0, 0]]
    """
    ctx = torch_context("index_put", indices="indices", updates="values")
    d = data_array(ctx, input)
    check_dtype(ctx, d)
    acc = as_bool(ctx, "accumulate", accumulate)
    dup = parse_enum(Duplicates, duplicates)
    if not isinstance(indices, (tuple, list)):
        raise ArgumentError(
            f"{ctx.label}: indices must be a tuple of index arrays, one per leading dim of input "
            f"(got {type(indices).__name__}); write (index,) for one array"
        )
    if len(indices) == 0:
        raise ArgumentError(f"{ctx.label}: indices must hold at least one index array (torch fails on ())")
    comps: list[tuple[int, np.ndarray[Any, Any], int, bool]] = []  # (argument j, array, input dim, from a mask)
    consumed = 0
    for j, ix in enumerate(indices):
        if ix is None:
            raise ArgumentError(
                f"{ctx.label}: indices[{j}] is None; torch.index_put takes index arrays only (no None slices)"
            )
        arr = as_array(ctx, ix, f"indices[{j}]")
        if arr.size == 0 and arr.dtype.kind == "f" and not isinstance(ix, np.ndarray):
            arr = arr.astype(np.int64)  # an empty Python list
        elif arr.dtype.kind in "iu" and not isinstance(ix, np.ndarray) and arr.dtype != np.int64:
            arr = arr.astype(np.int64)
        if arr.dtype.kind == "b":
            if arr.ndim == 0:
                raise UnsupportedError(
                    f"{ctx.label}: indices[{j}] is a 0-d bool; torch {VERSION} fails on it (alone) or ignores it "
                    f"(with other indices); use a 1-d mask"
                )
            k = arr.ndim
            if consumed + k > d.ndim:
                raise ShapeError(
                    f"{ctx.label}: too many indices for input of dimension {d.ndim} (the masks and index arrays "
                    f"address {consumed + k} dims)"
                )
            dims = tuple(d.shape[consumed : consumed + k])
            if arr.shape != dims:
                raise ShapeError(
                    f"{ctx.label}: the shape of the mask indices[{j}] {list(arr.shape)} does not match the shape "
                    f"{list(dims)} of input dims {consumed}..{consumed + k - 1}"
                )
            for t, c in enumerate(np.nonzero(arr)):
                comps.append((j, c, consumed + t, True))
            consumed += k
            continue
        name = dtype_name(arr.dtype)
        if name not in INDEX_INT32_INT64:
            hint = " (torch reads uint8 as a deprecated byte mask: pass a bool mask)" if name == "uint8" else ""
            raise DTypeError(
                f"{ctx.label}: indices[{j}] dtype {name} is not accepted; index arrays must be int64, int32 or "
                f"bool{hint}"
            )
        if consumed + 1 > d.ndim:
            raise ShapeError(
                f"{ctx.label}: too many indices for input of dimension {d.ndim} (got {consumed + 1})"
            )
        comps.append((j, arr, consumed, False))
        consumed += 1
    try:
        bshape = tuple(np.broadcast_shapes(*(c.shape for _, c, _, _ in comps)))
    except ValueError:
        shapes = ", ".join(str(list(c.shape)) for _, c, _, _ in comps)
        raise ShapeError(
            f"{ctx.label}: the index arrays could not be broadcast together (shapes {shapes})"
        ) from None
    empty_dims = [dim for _, _, dim, _ in comps if d.shape[dim] == 0]
    if empty_dims and 0 not in bshape:  # torch checks this before anything is indexed
        raise IndexOutOfRangeError(
            f"{ctx.label}: indices address dim {empty_dims[0]} of input, which has size 0, with the non-empty "
            f"broadcast index shape {list(bshape)}: no index is valid for a dim of size 0",
            position=None, valid=None,
        )
    rshape = bshape + tuple(d.shape[consumed:])
    v0 = as_array(ctx, values, "values")
    if not acc and len(indices) == 1 and comps and comps[0][3] and v0.size == 1:
        # torch's masked_fill_ fast path: one bool mask and a one-element values of any shape and dtype
        # (converted like a Python scalar)
        v = to_scalar(ctx, v0.reshape(()), d.dtype, "values")
    else:
        v = src_array(ctx, values, d.dtype, "values")
    ok = v.ndim <= len(rshape)
    if ok:
        try:
            ok = tuple(np.broadcast_shapes(v.shape, rshape)) == rshape
        except ValueError:
            ok = False
    if not ok:
        raise ShapeError(
            f"{ctx.label}: values of shape {list(v.shape)} cannot be broadcast to the indexing result of shape "
            f"{list(rshape)}"
        )
    spec = IndexSpec(axis=0, depth=consumed, vector=True)
    updates = np.broadcast_to(v, rshape)
    if prod(rshape) == 0:  # torch iterates over the (empty) result: no index is checked
        empty = np.zeros((*bshape, consumed), np.int64)
        return Lowering("scatter", d, empty, spec, Policy(), ctx, updates=updates, result=np.array(d, copy=True))
    for j, c, dim, from_mask in comps:
        if not from_mask:
            _check_bounds(ctx, j, c, dim, d.shape[dim])
    stacked = np.stack([np.broadcast_to(c.astype(np.int64, copy=False), bshape) for _, c, _, _ in comps], axis=-1)
    policy = Policy(
        bounds="raise", negative="wrap", reduction=Reduction.ADD if acc else Reduction.NONE, duplicates=dup
    )
    return Lowering("scatter", d, stacked, spec, policy, ctx, updates=updates)
