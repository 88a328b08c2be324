"""gs.torch against the real torch (2.13 CPU), value for value, dtype and shape.

Every op runs on generated inputs (seeded; shapes with zero-size dims, 0-d
tensors, negative / out-of-range / duplicate indices, every torch data dtype,
wrong index dtypes) plus a table of hand-picked edge cases. When torch raises,
gatherscatter must raise a GatherScatterError; when torch returns, we must
return the same dtype, shape and values (NaN == NaN).

torch runs with one thread: ``index_put``/``index_copy`` duplicates are
nondeterministic with several threads (recorded divergences) and small inputs
are last-wins anyway.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

torch = pytest.importorskip("torch")

try:  # bfloat16 arrays
    import ml_dtypes

    BF16: Any = np.dtype(ml_dtypes.bfloat16)
except ImportError:  # pragma: no cover
    BF16 = None

N_CASES = 250  # generated cases per op

DTYPES = [np.float32, np.float64, np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_, np.float16,
          np.complex64, np.complex128]
if BF16 is not None:
    DTYPES.append(BF16)
RARE_DTYPES = [np.uint16, np.uint32, np.uint64]


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


# ----------------------------------------------------------------------------- conversions

def to_torch(x: Any) -> Any:
    if not isinstance(x, np.ndarray):
        return x
    # torch gets C-ordered copies: its kernels iterate in memory order, so with a Fortran-ordered tensor the
    # "last" duplicate, float accumulation order and take_along_dim(dim=None) (a .view(-1)) would change
    x = np.array(x, copy=True, order="C")
    if BF16 is not None and x.dtype == BF16:
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(x)


def from_torch(t: Any) -> np.ndarray:
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(BF16)
    return t.numpy()


class Outcome:
    def __init__(self, value: np.ndarray | None = None, error: BaseException | None = None) -> None:
        self.value, self.error = value, error


def run_torch(fn: Callable[[], Any]) -> Outcome:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return Outcome(value=from_torch(fn()))
    except Exception as exc:  # torch raises RuntimeError, IndexError, TypeError, NotImplementedError ...
        return Outcome(error=exc)


def run_ours(fn: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(value=fn())
    except gs.GatherScatterError as exc:
        return Outcome(error=exc)


def disagreement(theirs: Outcome, ours: Outcome) -> str | None:
    """None when we agree with torch, else a one-line description."""
    if theirs.error is not None:
        if ours.error is None:
            return f"torch raised {type(theirs.error).__name__}: {str(theirs.error)[:120]!r}; we returned {ours.value!r}"
        return None
    if ours.error is not None:
        return f"torch returned {theirs.value!r}; we raised {ours.error!r}"
    want, got = theirs.value, ours.value
    assert want is not None and got is not None
    if not isinstance(got, np.ndarray):
        return f"we returned {type(got).__name__}, not an ndarray"
    if got.dtype != want.dtype or got.shape != want.shape:
        return f"dtype/shape {got.dtype}{got.shape} != torch {want.dtype}{want.shape}"
    if BF16 is not None and want.dtype == BF16:
        want, got = want.astype(np.float32), got.astype(np.float32)
    if not np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"):
        return f"values differ: ours {got.tolist()} torch {want.tolist()}"
    return None


Case = tuple[str, Callable[[], Any], Callable[[], Any]]

# Cases where a recorded divergence allows a last-bit difference (fused multiply-add in torch):
# torch.index_add with alpha other than +-1 / powers of two on floating input of rank >= 2, and
# complex128 products (torch.scatter_reduce prod, torch.scatter reduce='multiply').
APPROX: set[str] = set()


def approx(desc: str) -> str:
    APPROX.add(desc)
    return desc


# Cases where torch 2.13 fails with an internal assert (a torch bug) and we compute the documented
# result: torch.index_reduce prod on float16/bfloat16 rank >= 2 with one-element slices.
TORCH_BUGS: set[str] = set()


def torch_bug(desc: str) -> str:
    TORCH_BUGS.add(desc)
    return desc


def check_cases(cases: list[Case]) -> int:
    bad = []
    for desc, tfn, ofn in cases:
        theirs, ours = run_torch(tfn), run_ours(ofn)
        msg = disagreement(theirs, ours)
        if msg and desc in TORCH_BUGS and "INTERNAL ASSERT" in str(theirs.error) and ours.error is None:
            msg = None
        if msg and desc in APPROX and theirs.value is not None and isinstance(ours.value, np.ndarray):
            want, got = theirs.value, ours.value
            if got.dtype == want.dtype and got.shape == want.shape:
                w, g = want.astype(np.complex128), got.astype(np.complex128)
                eps = float(np.finfo(np.float16 if want.dtype == np.float16 else want.real.dtype).eps) \
                    if want.dtype != BF16 else 2.0**-7
                scale = max(float(np.nanmax(np.abs(w))) if w.size else 0.0, 1.0)
                if np.allclose(g, w, rtol=0, atol=8 * eps * scale, equal_nan=True):
                    msg = None
        if msg:
            bad.append(f"{desc}: {msg}")
    assert not bad, f"{len(bad)} of {len(cases)} cases disagree with torch:\n" + "\n".join(bad[:15])
    return len(cases)


# ----------------------------------------------------------------------------- random inputs

def rand_dtype(rng: np.random.Generator) -> np.dtype:
    if rng.random() < 0.03:
        return np.dtype(RARE_DTYPES[rng.integers(len(RARE_DTYPES))])
    return np.dtype(DTYPES[rng.integers(len(DTYPES))])


def rand_data(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype, *, reducing: bool = False) -> np.ndarray:
    a = _rand_data(rng, shape, dtype, reducing=reducing)
    if len(shape) >= 2 and rng.random() < 0.15:
        return np.asfortranarray(a)  # same values, a layout NumPy cannot flatten without copying
    return a


def _rand_data(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype, *, reducing: bool) -> np.ndarray:
    n = int(np.prod(shape))
    if dtype.kind == "b":
        return (rng.random(n) < 0.5).reshape(shape)
    if dtype.kind == "u":
        return rng.integers(0, 12, n).astype(dtype).reshape(shape)
    if dtype.kind == "i":
        return rng.integers(-6, 7, n).astype(dtype).reshape(shape)
    if dtype.kind == "c":
        return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype).reshape(shape)
    vals = rng.standard_normal(n) * (1.5 if reducing else 10)
    if rng.random() < 0.1 and n:
        vals[rng.integers(n)] = np.nan
    return vals.astype(dtype).reshape(shape)


def rand_shape(rng: np.random.Generator, rank: int, *, zero: float = 0.08, hi: int = 4) -> tuple[int, ...]:
    return tuple(0 if rng.random() < zero else int(rng.integers(1, hi + 1)) for _ in range(rank))


def rand_index(rng: np.random.Generator, shape: tuple[int, ...], s: int, *, oob: float = 0.06,
               neg: float = 0.15, idtype: Any = np.int64) -> np.ndarray:
    n = int(np.prod(shape))
    vals = rng.integers(0, max(s, 1), n)
    r = rng.random(n)
    if s > 0:
        vals = np.where(r < neg, rng.integers(-s, 0, n), vals)
    far = rng.choice([s, s + 1, -s - 1, 100, -100, 2**31 - 1], n)
    vals = np.where(r > 1 - oob, far, vals)
    return vals.astype(idtype).reshape(shape)


def rand_index_dtype(rng: np.random.Generator) -> Any:
    x = rng.random()
    if x < 0.7:
        return np.int64
    if x < 0.93:
        return np.int32
    return [np.int16, np.uint8, np.int8][rng.integers(3)]


def rand_dim(rng: np.random.Generator, rank: int) -> int:
    r = max(rank, 1)
    if rng.random() < 0.04:
        return int(rng.choice([r, -r - 1]))
    return int(rng.integers(-r, r))


def T(x: Any) -> Any:
    return to_torch(x)


# ----------------------------------------------------------------------------- per-op generators

def elementwise_shapes(rng: np.random.Generator, dshape: tuple[int, ...], a: int) -> tuple[int, ...]:
    """An index shape for gather/scatter: <= data on dims != dim, anything along dim."""
    r = len(dshape)
    if r == 0:
        return () if rng.random() < 0.6 else (int(rng.integers(0, 3)),)
    shape = [int(rng.integers(0, n + 1)) if rng.random() < 0.5 else n for n in dshape]
    shape[a] = int(rng.integers(0, 5))
    if rng.random() < 0.05:
        k = int(rng.integers(r))
        shape[k] += 1  # larger than data (an error unless k is dim)
    if rng.random() < 0.04:
        shape = shape[:-1] if rng.random() < 0.5 else [*shape, 1]  # rank mismatch
    return tuple(shape)


def gen_gather(rng: np.random.Generator) -> list[Case]:
    cases: list[Case] = []
    for _ in range(N_CASES):
        r = int(rng.integers(0, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        x = rand_data(rng, dshape, dt)
        dim = rand_dim(rng, r)
        a = dim % max(r, 1) if -max(r, 1) <= dim < max(r, 1) else 0
        ishape = elementwise_shapes(rng, dshape, a)
        s = dshape[a] if r else 1
        i = rand_index(rng, ishape, s, idtype=rand_index_dtype(rng))
        cases.append((f"gather {dt}{dshape} dim={dim} index={i.dtype}{i.tolist()}",
                      lambda x=x, d=dim, i=i: torch.gather(T(x), d, T(i)),
                      lambda x=x, d=dim, i=i: gs.torch.gather(x, d, i)))
    return cases


def gen_scatter_like(rng: np.random.Generator, op: str) -> list[Case]:
    cases: list[Case] = []
    reduces = {"scatter": [None, None, "add", "multiply"], "scatter_add": [None],
               "scatter_reduce": ["sum", "prod", "mean", "amax", "amin"]}[op]
    for _ in range(N_CASES):
        r = int(rng.integers(0, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        red = reduces[rng.integers(len(reduces))]
        x = rand_data(rng, dshape, dt, reducing=red is not None)
        dim = rand_dim(rng, r)
        a = dim % max(r, 1) if -max(r, 1) <= dim < max(r, 1) else 0
        ishape = elementwise_shapes(rng, dshape, a)
        s = dshape[a] if r else 1
        i = rand_index(rng, ishape, s, neg=0.05, idtype=rand_index_dtype(rng))
        sshape = tuple(n + int(rng.integers(0, 2)) for n in ishape) if rng.random() < 0.8 else ishape
        if rng.random() < 0.05 and sshape:
            sshape = sshape[:-1] + (max(sshape[-1] - 1, 0),)
        sdt = dt if rng.random() < 0.95 else np.dtype(np.float64 if dt != np.float64 else np.float32)
        src = rand_data(rng, sshape, sdt, reducing=True)
        desc = f"{op} {dt}{dshape} dim={dim} index={i.dtype}{i.tolist()} src={src.dtype}{src.shape} reduce={red}"
        if op == "scatter":
            if rng.random() < 0.3:
                value = [1.5, -2, 3, True, 0.25, -1][rng.integers(6)]
                desc += f" value={value}"
                if dt == np.complex128 and red == "multiply":
                    desc = approx(desc)
                cases.append((desc,
                              lambda x=x, d=dim, i=i, v=value, rd=red: torch.scatter(T(x), d, T(i), v, reduce=rd)
                              if rd else torch.scatter(T(x), d, T(i), v),
                              lambda x=x, d=dim, i=i, v=value, rd=red: gs.torch.scatter(x, d, i, value=v, reduce=rd)))
            else:
                if dt == np.complex128 and red == "multiply":
                    desc = approx(desc)
                cases.append((desc,
                              lambda x=x, d=dim, i=i, u=src, rd=red: torch.scatter(T(x), d, T(i), T(u), reduce=rd)
                              if rd else torch.scatter(T(x), d, T(i), T(u)),
                              lambda x=x, d=dim, i=i, u=src, rd=red: gs.torch.scatter(x, d, i, src=u, reduce=rd)))
        elif op == "scatter_add":
            cases.append((desc, lambda x=x, d=dim, i=i, u=src: torch.scatter_add(T(x), d, T(i), T(u)),
                          lambda x=x, d=dim, i=i, u=src: gs.torch.scatter_add(x, d, i, u)))
        else:
            inc = bool(rng.random() < 0.5)
            desc += f" include_self={inc}"
            if dt == np.complex128 and red == "prod":
                desc = approx(desc)
            cases.append((desc,
                          lambda x=x, d=dim, i=i, u=src, rd=red, inc=inc:
                          torch.scatter_reduce(T(x), d, T(i), T(u), rd, include_self=inc),
                          lambda x=x, d=dim, i=i, u=src, rd=red, inc=inc:
                          gs.torch.scatter_reduce(x, d, i, u, rd, include_self=inc)))
    return cases


def gen_index_select(rng: np.random.Generator) -> list[Case]:
    cases: list[Case] = []
    for _ in range(N_CASES):
        r = int(rng.integers(0, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        x = rand_data(rng, dshape, dt)
        dim = rand_dim(rng, r)
        a = dim % max(r, 1) if -max(r, 1) <= dim < max(r, 1) else 0
        s = dshape[a] if r else 1
        k = rng.random()
        ishape = () if k < 0.15 else ((1, 2) if k < 0.2 else (int(rng.integers(0, 5)),))
        i = rand_index(rng, ishape, s, neg=0.05, idtype=rand_index_dtype(rng))
        cases.append((f"index_select {dt}{dshape} dim={dim} index={i.dtype}{i.tolist()}",
                      lambda x=x, d=dim, i=i: torch.index_select(T(x), d, T(i)),
                      lambda x=x, d=dim, i=i: gs.torch.index_select(x, d, i)))
    return cases


def gen_take(rng: np.random.Generator) -> list[Case]:
    cases: list[Case] = []
    for _ in range(N_CASES):
        r = int(rng.integers(0, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        x = rand_data(rng, dshape, dt)
        ishape = rand_shape(rng, int(rng.integers(0, 3)))
        i = rand_index(rng, ishape, x.size, idtype=rand_index_dtype(rng))
        cases.append((f"take {dt}{dshape} index={i.dtype}{i.tolist()}",
                      lambda x=x, i=i: torch.take(T(x), T(i)), lambda x=x, i=i: gs.torch.take(x, i)))
    return cases


def gen_take_along_dim(rng: np.random.Generator) -> list[Case]:
    cases: list[Case] = []
    for _ in range(N_CASES):
        r = int(rng.integers(0, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        x = rand_data(rng, dshape, dt)
        if rng.random() < 0.25:
            ishape = rand_shape(rng, int(rng.integers(0, 3)))
            i = rand_index(rng, ishape, x.size, idtype=rand_index_dtype(rng))
            cases.append((f"take_along_dim {dt}{dshape} None index={i.dtype}{i.tolist()}",
                          lambda x=x, i=i: torch.take_along_dim(T(x), T(i)),
                          lambda x=x, i=i: gs.torch.take_along_dim(x, i)))
            continue
        dim = rand_dim(rng, r)
        a = dim % max(r, 1) if -max(r, 1) <= dim < max(r, 1) else 0
        ishape = [1 if rng.random() < 0.3 else n for n in dshape]
        if r:
            ishape[a] = int(rng.integers(0, 4))
            for k in range(r):
                if k != a and dshape[k] == 1 and rng.random() < 0.3:
                    ishape[k] = int(rng.integers(0, 4))
            if rng.random() < 0.05:
                ishape[int(rng.integers(r))] += 2
        if rng.random() < 0.04:
            ishape = ishape[:-1]
        s = dshape[a] if r else 1
        i = rand_index(rng, tuple(ishape), s, oob=0.2, idtype=np.int64 if rng.random() < 0.9 else np.int32)
        cases.append((f"take_along_dim {dt}{dshape} dim={dim} index={i.dtype}{i.tolist()}",
                      lambda x=x, d=dim, i=i: torch.take_along_dim(T(x), T(i), d),
                      lambda x=x, d=dim, i=i: gs.torch.take_along_dim(x, i, d)))
    return cases


def gen_index_put(rng: np.random.Generator) -> list[Case]:
    cases: list[Case] = []
    for _ in range(N_CASES):
        r = int(rng.integers(1, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        x = rand_data(rng, dshape, dt, reducing=True)
        k = int(rng.integers(1, r + 1))
        bshape = rand_shape(rng, int(rng.integers(0, 3)), zero=0.05)
        idx: list[np.ndarray] = []
        used = 0
        while used < k:
            if rng.random() < 0.15:
                m = int(rng.integers(1, k - used + 1))
                mshape = dshape[used:used + m]
                if rng.random() < 0.05:
                    mshape = (*mshape[:-1], mshape[-1] + 1)
                idx.append(rng.random(mshape) < 0.5)
                used += m
            else:
                ishape = tuple(n if rng.random() < 0.7 else 1 for n in bshape)
                if rng.random() < 0.3 and ishape:
                    ishape = ishape[1:]
                idx.append(rand_index(rng, ishape, dshape[used], oob=0.04, idtype=np.int64
                                      if rng.random() < 0.8 else np.int32))
                used += 1
        if rng.random() < 0.03:
            idx.append(np.array([0]))  # too many
        try:
            rshape = x[tuple(idx)].shape
        except (IndexError, ValueError):
            rshape = bshape + dshape[k:]
        vshape = tuple(n if rng.random() < 0.7 else 1 for n in rshape)
        vshape = vshape[int(rng.integers(0, len(vshape) + 1)):] if vshape else ()
        if rng.random() < 0.04:
            vshape = (1, *vshape)
        v = rand_data(rng, vshape, dt, reducing=True)
        acc = bool(rng.random() < 0.4)
        desc = f"index_put {dt}{dshape} indices={[i.tolist() for i in idx]} values{v.shape} acc={acc}"
        cases.append((desc,
                      lambda x=x, idx=idx, v=v, acc=acc: T(x).index_put(tuple(T(i) for i in idx), T(v), accumulate=acc),
                      lambda x=x, idx=idx, v=v, acc=acc: gs.torch.index_put(x, tuple(idx), v, accumulate=acc)))
    return cases


def gen_index_axis(rng: np.random.Generator, op: str) -> list[Case]:
    cases: list[Case] = []
    for _ in range(N_CASES):
        r = int(rng.integers(0, 4))
        dshape = rand_shape(rng, r)
        dt = rand_dtype(rng)
        x = rand_data(rng, dshape, dt, reducing=True)
        dim = rand_dim(rng, r)
        a = dim % max(r, 1) if -max(r, 1) <= dim < max(r, 1) else 0
        s = dshape[a] if r else 1
        ishape = () if rng.random() < 0.12 else (int(rng.integers(0, 6)),)
        if rng.random() < 0.03:
            ishape = (1, 1)
        idt = np.int64 if rng.random() < 0.8 else (np.int32 if rng.random() < 0.8 else np.int16)
        i = rand_index(rng, ishape, s, neg=0.08, oob=0.04, idtype=idt)
        n = i.size
        sshape = list(dshape) if r else []
        if r:
            sshape[a] = n
        elif rng.random() < 0.5:
            sshape = [n]
        if rng.random() < 0.05 and sshape:
            sshape[int(rng.integers(len(sshape)))] += 1
        src = rand_data(rng, tuple(sshape), dt, reducing=True)
        desc = f"{op} {dt}{dshape} dim={dim} index={i.dtype}{i.tolist()} source{src.shape}"
        if op == "index_add":
            alpha = [1, 1, 2, -1, 0.5, 3, True][rng.integers(7)]
            desc += f" alpha={alpha}"
            if alpha == 3 and r >= 2 and (dt.kind in "fc" or dt == BF16):
                desc = approx(desc)
            cases.append((desc,
                          lambda x=x, d=dim, i=i, u=src, al=alpha: torch.index_add(T(x), d, T(i), T(u), alpha=al),
                          lambda x=x, d=dim, i=i, u=src, al=alpha: gs.torch.index_add(x, d, i, u, alpha=al)))
        elif op == "index_copy":
            cases.append((desc, lambda x=x, d=dim, i=i, u=src: torch.index_copy(T(x), d, T(i), T(u)),
                          lambda x=x, d=dim, i=i, u=src: gs.torch.index_copy(x, d, i, u)))
        elif op == "index_fill":
            value = [1.5, -2, 3, True, 0.25, -1, 300, 2.5][rng.integers(8)]
            if rng.random() < 0.1:
                value = np.array(value)
            cases.append((desc + f" value={value!r}",
                          lambda x=x, d=dim, i=i, v=value: torch.index_fill(T(x), d, T(i), T(v)),
                          lambda x=x, d=dim, i=i, v=value: gs.torch.index_fill(x, d, i, v)))
        else:
            red = ["prod", "mean", "amax", "amin"][rng.integers(4)]
            inc = bool(rng.random() < 0.5)
            desc += f" reduce={red} include_self={inc}"
            if red == "prod" and dt.kind == "c":
                desc = approx(desc)
            if red == "prod" and (dt == np.float16 or dt == BF16) and r >= 2 and x.size == x.shape[a]:
                desc = torch_bug(desc)
            cases.append((desc,
                          lambda x=x, d=dim, i=i, u=src, rd=red, inc=inc:
                          T(x).index_reduce(d, T(i), T(u), rd, include_self=inc),
                          lambda x=x, d=dim, i=i, u=src, rd=red, inc=inc:
                          gs.torch.index_reduce(x, d, i, u, rd, include_self=inc)))
    return cases


GENERATORS: dict[str, Callable[[np.random.Generator], list[Case]]] = {
    "gather": gen_gather,
    "scatter": lambda rng: gen_scatter_like(rng, "scatter"),
    "scatter_add": lambda rng: gen_scatter_like(rng, "scatter_add"),
    "scatter_reduce": lambda rng: gen_scatter_like(rng, "scatter_reduce"),
    "index_select": gen_index_select,
    "take": gen_take,
    "take_along_dim": gen_take_along_dim,
    "index_put": gen_index_put,
    "index_add": lambda rng: gen_index_axis(rng, "index_add"),
    "index_copy": lambda rng: gen_index_axis(rng, "index_copy"),
    "index_fill": lambda rng: gen_index_axis(rng, "index_fill"),
    "index_reduce": lambda rng: gen_index_axis(rng, "index_reduce"),
}


@pytest.mark.parametrize("op", sorted(GENERATORS))
def test_generated_cases_match_torch(op: str) -> None:
    rng = np.random.default_rng(sorted(GENERATORS).index(op) + 2026)
    cases = GENERATORS[op](rng)
    assert check_cases(cases) == N_CASES


# ----------------------------------------------------------------------------- hand-picked edge cases

def _tt(a: Any) -> Any:
    if isinstance(a, tuple):
        return tuple(_tt(x) for x in a)
    return to_torch(a)


def A(*values: Any, dtype: Any = None) -> np.ndarray:
    return np.array(values[0] if len(values) == 1 else values, dtype=dtype)


def edge(desc: str, op: str, *args: Any, method: bool = False, **kw: Any) -> Case:
    """A case calling torch.<op> (or Tensor.<op> when ``method``) and gs.torch.<op> on the same arguments."""
    def theirs() -> Any:
        targs = [_tt(a) for a in args]
        tkw = {k: _tt(v) for k, v in kw.items()}
        if method:
            return getattr(targs[0], op)(*targs[1:], **tkw)
        return getattr(torch, op)(*targs, **tkw)

    def ours() -> Any:
        return getattr(gs.torch, op)(*args, **kw)

    return (f"{op}: {desc}", theirs, ours)


F32, F16, I64, I32, I8, U8 = np.float32, np.float16, np.int64, np.int32, np.int8, np.uint8


def edge_cases() -> list[Case]:
    x23 = A([[1, 2, 3], [4, 5, 6]], dtype=F32)
    z = np.zeros(4, F32)
    cases = [
        # docs/behavior-matrix.md#t6-1 / docs/behavior-matrix.md#t6-2 / docs/behavior-matrix.md#t6-4 /
        # docs/behavior-matrix.md#t6-5 / docs/behavior-matrix.md#t6-6 / docs/behavior-matrix.md#t6-7
        edge("negative index raises", "index_select", A([10, 20, 30], dtype=F32), 0, A([0, -1])),
        edge("0-d index keeps the dim", "index_select", x23, 1, A(2)),
        edge("0-d input, one index", "index_select", A(5.0, dtype=F32), 0, A([0])),
        edge("0-d input, two indices", "index_select", A(5.0, dtype=F32), 0, A([0, 0])),
        edge("2-d index", "index_select", x23, 1, A([[0]])),
        edge("uint32 rank 2 (raw copy)", "index_select", A([[1, 2], [3, 4]], dtype=np.uint32), 0, A([1])),
        edge("uint32 rank 1", "index_select", A([1, 2], dtype=np.uint32), 0, A([1])),
        edge("take wraps -1", "take", A([10, 20, 30], dtype=F32), A([0, -1])),
        edge("take out of range", "take", A([10, 20, 30], dtype=F32), A([0, 3])),
        edge("take int32 index", "take", A([10, 20, 30], dtype=F32), A([0], dtype=I32)),
        edge("take from empty", "take", np.zeros((0, 3), F32), A([0])),
        edge("gather negative", "gather", x23, 1, A([[0], [-1]])),
        edge("gather smaller index", "gather", A([[1, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=F32), 1, A([[0], [1]])),
        edge("gather larger index", "gather", A([[1, 2], [3, 4]], dtype=F32), 1, A([[0], [1], [0]])),
        edge("gather 0-d", "gather", A(5.0, dtype=F32), 0, A(0)),
        edge("gather 0-d input, 1-d index", "gather", A(5.0, dtype=F32), -1, A([0, 0])),
        edge("gather 1-d input, 0-d index", "gather", A([5.0, 6.0], dtype=F32), 0, A(1)),
        edge("gather empty index, any rank", "gather", x23, 1, np.zeros((5, 0, 2), I64)),
        edge("gather int16 index", "gather", x23, 1, A([[0]], dtype=np.int16)),
        edge("wraps 3 -> 0", "take_along_dim", x23, A([[0], [3]]), 1),
        edge("wraps -4 -> 2", "take_along_dim", x23, A([[0], [-4]]), 1),
        edge("wraps int64 extremes", "take_along_dim", x23, A([[2**63 - 1], [-(2**63)]]), 1),
        edge("broadcasts", "take_along_dim", A([[1, 2, 3]], dtype=F32), A([[0], [2], [1]]), 1),
        edge("dim=None flat, -1 raises", "take_along_dim", x23, A([0, -1])),
        edge("dim=None int32", "take_along_dim", x23, A([[5, 0]], dtype=I32)),
        edge("0-d input with dim", "take_along_dim", A(5.0, dtype=F32), A(0), 0),
        edge("size-0 dim", "take_along_dim", np.zeros((2, 0), F32), A([[0], [1]]), 1),
        edge("last wins", "scatter", z, 0, A([1, 1, 1]), A([10, 20, 30], dtype=F32)),
        edge("src larger than index", "scatter", np.zeros((3, 3), F32), 0, A([[1, 2]]), np.arange(9, dtype=F32).reshape(3, 3)),
        edge("src smaller than index", "scatter", np.zeros((3, 3), F32), 0, A([[1, 2]]), A([[1]], dtype=F32)),
        edge("index longer along dim", "scatter", np.zeros((2, 3), F32), 0, A([[1], [0], [1], [0]]), np.ones((4, 5), F32)),
        edge("0-d src", "scatter", np.zeros(3, F32), 0, A([1, 2]), A(5.0, dtype=F32)),
        edge("src dtype", "scatter", np.zeros(3, F32), 0, A([1, 2]), A([5.0, 6.0])),
        edge("empty index skips checks", "scatter", np.zeros((3, 3), F32), 0, np.zeros(0, np.int16), A([1.0])),
        edge("0-d input, 1-d index", "scatter", A(1.0, dtype=F32), 0, A([0, 0]), A([5, 6], dtype=F32)),
        edge("reduce=add duplicates", "scatter", np.ones(3, F32), 0, A([1, 1]), A([2, 3], dtype=F32), reduce="add"),
        edge("reduce=multiply value", "scatter", np.full(3, 2, F32), 0, A([1, 1]), 3.0, reduce="multiply"),
        edge("reduce=mean refused", "scatter", np.ones(3, F32), 0, A([1]), A([2], dtype=F32), reduce="mean"),
        edge("bool add is or", "scatter", A([True, False, False]), 0, A([1, 1, 0]), A([True, True, False]), reduce="add"),
        edge("float16 add sums in float32", "scatter", np.zeros(1, F16), 0, np.zeros(40, I64), np.full(40, 0.1, F16), reduce="add"),
    ]
    for value in (2.7, -2.7, 300, -1, -256, True, 1 + 2j, 1 + 0j, float("nan"), float("inf"), 1e40, 70000.0, 2**63 - 1):
        for dt in (U8, I8, I64, F16, F32, np.bool_, np.complex64):
            cases.append(edge(f"value {value!r} into {np.dtype(dt)}", "scatter", np.zeros(2, dt), 0, A([1]), value=value))
            cases.append(edge(f"value {value!r} into {np.dtype(dt)}", "index_fill", np.zeros(2, dt), 0, A([1]), value))
    d5 = A([5, 5, 5, 5], dtype=F32)
    i = A([0, 0, 2])
    u = A([2, 4, 7], dtype=F32)
    for red in ("sum", "prod", "mean", "amax", "amin", "max", "min", "multiply", "add", "Sum"):
        for inc in (True, False):
            cases.append(edge(f"matrix 6.7 {red} include_self={inc}", "scatter_reduce", d5, 0, i, u, red, include_self=inc))
    cases += [
        edge("int mean floors", "scatter_reduce", A([-5, -5, -5, -5], dtype=I32), 0, i, A([-2, -4, -7], dtype=I32), "mean"),
        edge("semantics 5.2 example", "scatter_reduce", A([1, 2, 3, 4], dtype=F32), 0, A([0, 1, 0, 1, 2, 1]),
             A([1, 2, 3, 4, 5, 6], dtype=F32), "mean", include_self=False),
        edge("int8 mean count wraps", "scatter_reduce", np.zeros(1, I8), 0, np.zeros(200, I64), np.ones(200, I8), "mean"),
        edge("uint8 mean count 256 -> 0 -> 1", "scatter_reduce", np.zeros(1, U8), 0, np.zeros(255, I64), np.ones(255, U8), "mean"),
        edge("float16 mean 3000", "scatter_reduce", np.zeros(1, F16), 0, np.zeros(3000, I64), np.ones(3000, F16), "mean"),
        edge("bool mean refused", "scatter_reduce", A([True]), 0, A([0]), A([True]), "mean"),
        edge("bool mean refused, empty index", "scatter_reduce", A([True]), 0, np.zeros(0, I64), A([True]), "mean"),
        edge("complex amax refused", "scatter_reduce", A([1j]), 0, A([0]), A([2j]), "amax"),
        edge("complex amax, empty index", "scatter_reduce", A([1j]), 0, np.zeros(0, I64), A([2j]), "amax"),
        edge("nan propagates", "scatter_reduce", A([0.0, 0.0], dtype=F32), 0, A([0, 0]), A([np.nan, 1.0], dtype=F32), "amax"),
        edge("-inf without self", "scatter_reduce", A([0.0, 0.0], dtype=F32), 0, A([0]), A([-np.inf], dtype=F32), "amax",
             include_self=False),
        edge("include_self must be bool", "scatter_reduce", d5, 0, i, u, "sum", include_self=0),
        edge("int8 overflow wraps", "scatter_add", A([100, 0], dtype=I8), 0, A([0, 0]), A([100, 100], dtype=I8)),
        edge("0-d", "scatter_add", A(1.0, dtype=F32), 0, A([0, 0]), A([5, 6], dtype=F32)),
        edge("negative", "scatter_add", np.zeros((2, 2), F32), 1, A([[-1, 1]]), np.ones((1, 2), F32)),
        # index_put (matrix 6.5)
        edge("-1 wraps", "index_put", A([1, 2, 3], dtype=F32), (A([-1]),), A([9], dtype=F32), method=True),
        edge("3 raises", "index_put", A([1, 2, 3], dtype=F32), (A([3]),), A([9], dtype=F32), method=True),
        edge("last wins", "index_put", z, (A([1, 1, 1]),), A([10, 20, 30], dtype=F32), method=True),
        edge("accumulate", "index_put", np.ones(4, F32), (A([1, 1, 2]),), A([10, 20, 30], dtype=F32), True, method=True),
        edge("accumulate -1", "index_put", np.zeros(3, F32), (A([-1, -1, 2]),), A([1, 2, 4], dtype=F32), True, method=True),
        edge("broadcast indices", "index_put", np.zeros((3, 4), F32), (A([[0], [2]]), A([1, 3])), A(7, dtype=F32),
             method=True),
        edge("values broadcast", "index_put", np.zeros((3, 4), F32), (A([0, 2]),), A([1, 2, 3, 4], dtype=F32), method=True),
        edge("values extra leading 1", "index_put", np.zeros((3, 4), F32), (A([0, 2]),), np.ones((1, 2, 4), F32),
             method=True),
        edge("values dtype", "index_put", np.zeros((3, 4), F32), (A([0, 2]),), A(1.0), method=True),
        edge("2-d mask", "index_put", np.zeros((3, 4), F32), (np.eye(3, 4, dtype=bool),), A([5, 6, 7], dtype=F32),
             method=True),
        edge("mask shape", "index_put", np.zeros((3, 4), F32), (A([True, False]),), A(5, dtype=F32), method=True),
        edge("mask + int", "index_put", np.zeros((3, 4), F32), (A([True, False, True]), A([1, 3])),
             A([5, 6], dtype=F32), method=True),
        edge("masked_fill path: float64 value", "index_put", np.zeros((3, 2), F32), (A([True, False, True]),),
             A(1.5), method=True),
        edge("masked_fill path: (1,1,1) value", "index_put", np.zeros((3, 2), F32), (A([True, False, True]),),
             np.ones((1, 1, 1), F32), method=True),
        edge("masked_fill path: overflow", "index_put", np.zeros((3, 2), I8), (A([True, False, True]),), A(300),
             method=True),
        edge("accumulate: no masked_fill path", "index_put", np.zeros((3, 2), F32), (A([True, False, True]),),
             np.ones((1, 1, 1), F32), True, method=True),
        edge("too many", "index_put", np.zeros((3, 4), F32), (A([0]), A([0]), A([0])), A(5, dtype=F32), method=True),
        edge("0-d input", "index_put", A(1.0, dtype=F32), (A(0),), A(5, dtype=F32), method=True),
        edge("size-0 dim", "index_put", np.zeros((0, 2), F32), (A([0]),), A(1, dtype=F32), method=True),
        edge("size-0 dim, empty broadcast", "index_put", np.zeros((3, 0, 0), F32), (np.zeros((3, 0), I64), A([0])),
             A(1, dtype=F32), method=True),
        edge("empty broadcast skips bounds", "index_put", np.zeros((3, 2), F32), (np.zeros(0, I64), A([5])),
             A(1, dtype=F32), method=True),
        edge("int16 index", "index_put", np.zeros(3, F32), (A([0], dtype=np.int16),), A([1], dtype=F32), method=True),
        edge("float16 accumulate in float16", "index_put", np.zeros(1, F16), (np.zeros(40, I64),), np.full(40, 0.1, F16),
             True, method=True),
        # index_add / index_copy / index_fill / index_reduce (matrix 6.6)
        edge("negative raises", "index_add", np.zeros((3, 2), F32), 0, A([-1]), np.ones((1, 2), F32)),
        edge("duplicates add", "index_add", A([[1, 1], [2, 2], [3, 3]], dtype=F32), 0, A([1, 1]), A([[10, 10], [20, 20]], dtype=F32)),
        edge("alpha float on int", "index_add", np.zeros((3, 2), I64), 0, A([0, 2]), np.ones((2, 2), I64), alpha=2.5),
        edge("alpha -1 on uint8", "index_add", np.zeros((3, 2), U8), 0, A([0, 2]), np.ones((2, 2), U8), alpha=-1),
        edge("alpha 300 on uint8", "index_add", np.zeros((3, 2), U8), 0, A([0, 2]), np.ones((2, 2), U8), alpha=300),
        edge("alpha complex on float", "index_add", np.zeros((3, 2), F32), 0, A([0]), np.ones((1, 2), F32), alpha=1j),
        edge("alpha 0 on bool", "index_add", np.ones((3, 2), bool), 0, A([0]), np.ones((1, 2), bool), alpha=0),
        edge("0-d index", "index_add", np.zeros((3, 2), F32), 0, A(1), np.ones((1, 2), F32)),
        edge("0-d input 1-d source", "index_add", A(1.0, dtype=F32), 0, A([0]), A([5], dtype=F32)),
        edge("0-d input 0-d source", "index_add", A(1.0, dtype=F32), 0, A([0]), A(5, dtype=F32)),
        edge("rank-2 empty input skips bounds", "index_add", np.zeros((2, 0), F32), 0, A([5]), np.ones((1, 0), F32)),
        edge("rank-1 empty input checks", "index_add", np.zeros(0, F32), 0, A([0]), np.ones(1, F32)),
        edge("float16 via scatter_add", "index_add", np.zeros((1, 3), F16), 0, np.zeros(40, I64), np.full((40, 3), 0.1, F16)),
        edge("float16 int32 index: per-entry adds", "index_add", np.zeros((1, 3), F16), 0, np.zeros(40, I32),
             np.full((40, 3), 0.1, F16)),
        edge("float16 middle dim", "index_add", np.zeros((1, 1, 3), F16), 1, np.zeros(40, I64), np.full((1, 40, 3), 0.1, F16)),
        edge("float16 rank 1", "index_add", np.zeros(1, F16), 0, np.zeros(40, I64), np.full(40, 0.1, F16)),
        edge("last wins", "index_copy", np.zeros((3, 2), F32), 0, A([1, 1]), A([[1, 2], [3, 4]], dtype=F32)),
        edge("int32 index", "index_copy", np.zeros((3, 2), F32), 0, A([1], dtype=I32), np.ones((1, 2), F32)),
        edge("negative raises", "index_copy", np.zeros((3, 2), F32), 0, A([-1]), np.ones((1, 2), F32)),
        edge("0-d source into 1-d", "index_copy", A([1, 2], dtype=F32), 0, A(1), A(5, dtype=F32)),
        edge("0-d source into 2-d", "index_copy", np.zeros((2, 2), F32), 0, A([1]), A(5, dtype=F32)),
        edge("empty slices skip bounds", "index_copy", np.zeros((2, 0), F32), 0, A([-9]), np.ones((1, 0), F32)),
        edge("size-0 dim", "index_copy", np.zeros((0, 2), F32), 0, A([0]), np.ones((1, 2), F32)),
        edge("-1 wraps", "index_fill", x23, 1, A([0, -1]), -1.0),
        edge("-4 raises", "index_fill", A([1, 2, 3], dtype=F32), 0, A([-4]), 7.0),
        edge("0-d input", "index_fill", A(1.0, dtype=F32), 0, A([-1]), 7.0),
        edge("value 1-d array", "index_fill", x23, 0, A([1]), A([7.0])),
        edge("value 0-d float64 array", "index_fill", x23, 0, A([1]), A(7.5)),
        edge("int32 index", "index_fill", x23, 0, A([1], dtype=I32), 7.0),
        edge("2-d index", "index_fill", x23, 0, A([[1]]), 7.0),
    ]
    xr = A([[1, 2], [3, 4], [5, 6]], dtype=F32)
    sr = A([[2, 3], [4, 5], [6, 7]], dtype=F32)
    for red in ("prod", "mean", "amax", "amin", "sum"):
        for inc in (True, False):
            cases.append(edge(f"{red} include_self={inc}", "index_reduce", xr, 0, A([0, 0, 2]), sr, red, include_self=inc,
                              method=True))
    cases += [
        edge("int mean floors", "index_reduce", A([[-5], [-5]]), 0, A([0, 0, 0]), A([[-2], [-4], [-7]]), "mean",
             method=True),
        edge("int8 mean count wraps", "index_reduce", np.zeros((1, 1), I8), 0, np.zeros(200, I64), np.ones((200, 1), I8),
             "mean", method=True),
        edge("float16 mean rank 1 (count stops at 2048)", "index_reduce", np.zeros(1, F16), 0, np.zeros(3000, I64),
             np.ones(3000, F16), "mean", method=True),
        edge("float16 mean rank 2 (count rounds)", "index_reduce", np.zeros((1, 2), F16), 0, np.zeros(3000, I64),
             np.ones((3000, 2), F16), "mean", method=True),
        edge("float16 mean rank 2 int32 (count stops)", "index_reduce", np.zeros((1, 2), F16), 0, np.zeros(3000, I32),
             np.ones((3000, 2), F16), "mean", method=True),
        edge("bool rank 1", "index_reduce", A([True, False]), 0, A([0]), A([True]), "amax", method=True),
        edge("bool rank 2", "index_reduce", np.ones((2, 2), bool), 0, A([0]), np.zeros((1, 2), bool), "amax", method=True),
        edge("negative raises", "index_reduce", xr, 0, A([-1]), sr[:1], "prod", method=True),
        edge("size-0 dim", "index_reduce", np.zeros((0, 2), F32), 0, A([0]), np.ones((1, 2), F32), "prod", method=True),
    ]
    bug = edge("float16 prod on one-element slices", "index_reduce", np.ones((3, 1), F16), 0, A([0, 0]),
               np.full((2, 1), 2, F16), "prod", method=True)
    cases.append((torch_bug(bug[0]), bug[1], bug[2]))  # torch: INTERNAL ASSERT FAILED; we compute 4
    return cases


def test_edge_cases_match_torch() -> None:
    assert check_cases(edge_cases()) > 200
