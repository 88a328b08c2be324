"""gs.vjp of every ``gs.jax`` op against ``jax.vjp`` (jax_enable_x64, CPU)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

from ._compare import ours, variants
from .cases import Args, I, R

jax = pytest.importorskip("jax")
jax.config.update("jax_enable_x64", True)
jnp = jax.numpy

EXTRA: dict[str, list[tuple[str, Any]]] = {
    "jax.at_get": [("promise-oob", lambda r: ((R(r, 4), (I([1, 7, 0, -9]),)), {}))],
    "jax.lax.gather": [
        (
            "promise-oob",
            lambda r: ((R(r, 5), I([[7], [1], [4]]), gs.jax.lax.GatherDimensionNumbers((1,), (), (0,)), (2,)), {}),
        )
    ],
    "jax.at_min": [("ties", lambda r: ((np.array([2.0, 1.0, 3.0]), (I([0, 0, 1, 1]),), np.array([2.0, 2.0, 1.0, 5.0])), {}))],
    "jax.at_max": [("ties", lambda r: ((np.array([2.0, 1.0, 3.0]), (I([0, 0, 1, 1]),), np.array([2.0, 2.0, 1.0, 5.0])), {}))],
}

#: composed ops (a scatter, then an element-wise step): JAX has no gradient (scatter_apply: "JVP not
#: implemented"; divide/power: scatter_mul gradients need unique_indices=True), and gs.vjp refuses them too
_DN = gs.jax.lax.ScatterDimensionNumbers((), (0,), (0,))
REFUSED: dict[str, tuple[Any, Callable[..., Any]]] = {
    "jax.at_divide": (lambda r: ((R(r, 4), (I([1, 3]),), R(r, 2)), {}),
                      lambda x, v: x.at[jnp.array([1, 3])].divide(v)),
    "jax.at_power": (lambda r: ((R(r, 4), (I([1, 1]),), R(r, 2)), {}),
                     lambda x, v: x.at[jnp.array([1, 1])].power(v)),
    "jax.at_apply": (lambda r: ((R(r, 4), (I([1, 3]),), "sin"), {}),
                     lambda x: x.at[jnp.array([1, 3])].apply(jnp.sin)),
    "jax.lax.scatter_apply": (lambda r: ((R(r, 4), I([[1], [3]]), "sin", _DN), {"update_shape": (2,)}),
                              lambda x: jax.lax.scatter_apply(x, jnp.array([[1], [3]]), jnp.sin,
                                                              _real_dnums(_DN), update_shape=(2,))),
}


def _real_dnums(dn: Any) -> Any:
    cls = jax.lax.GatherDimensionNumbers if type(dn).__name__.startswith("Gather") else jax.lax.ScatterDimensionNumbers
    return cls(**dn._asdict())


def _jax_fn(name: str, bound: inspect.BoundArguments, diff: list[str]) -> Callable[..., Any]:
    a = dict(bound.arguments)
    short = name.split(".", 1)[1]

    def f(*xs: Any) -> Any:
        v = dict(a)
        v.update(zip(diff, xs, strict=True))
        if short.startswith("at_"):
            ref = jnp.asarray(v["x"]).at[v["idx"]]
            meth = getattr(ref, short[3:])
            if short == "at_get":
                return meth(mode=v.get("mode"), fill_value=v.get("fill_value"))
            return meth(v["values"], mode=v.get("mode"))
        if short.startswith("lax."):
            kw = {k: (_real_dnums(x) if k == "dimension_numbers" else x) for k, x in v.items()}
            return getattr(jax.lax, short[4:])(**kw)
        return getattr(jnp, short)(**v)

    return f


def jax_vjp(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], ct: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
    op = gs.get_op(name)
    bound = inspect.signature(op.lower).bind(*args, **kwargs)
    diff = [n for n in op.info.differentiable if isinstance(bound.arguments.get(n), np.ndarray)]
    out, pb = jax.vjp(_jax_fn(name, bound, diff), *[jnp.asarray(bound.arguments[n]) for n in diff])
    grads = pb(jnp.asarray(ct))
    return np.asarray(out), {n: np.asarray(g) for n, g in zip(diff, grads, strict=True)}


def _params() -> list[Any]:
    res = []
    for op in gs.ops("jax"):
        name = op.info.qualname
        if op.lower.__module__.endswith(".segment"):
            continue  # see test_every_jax_op_is_compared (their finite-difference cases run in test_fd)
        if name in REFUSED:
            res.append(pytest.param(name, None, None, id=f"{name}-refused"))
            continue
        for vid, args, kwargs in variants(name, EXTRA.get(name)):
            res.append(pytest.param(name, args, kwargs, id=f"{name}-{vid}"))
    return res


PARAMS = _params()
MUL = ("jax.at_multiply", "jax.lax.scatter_mul")


@pytest.mark.parametrize(("name", "args", "kwargs"), PARAMS)
def test_vjp_matches_jax_vjp(name: str, args: Args, kwargs: dict[str, Any]) -> None:
    rng = np.random.default_rng(11)
    if name in REFUSED:
        make, jfn = REFUSED[name]
        args, kwargs = make(rng)
        with pytest.raises(gs.UnsupportedError, match="gradient"):
            gs.vjp(name, *args, **kwargs)
        arrays = [jnp.asarray(a) for a in args if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
        with pytest.raises(NotImplementedError):
            jax.vjp(jfn, *arrays)
        return
    out = gs.get_op(name)(*args, **kwargs)
    ct = rng.normal(size=out.shape)
    our_out, our_grads = ours(name, args, kwargs, ct)
    if name in MUL:
        # JAX: scatter_mul has no gradient w.r.t. updates unless unique_indices=True;
        # compare the operand's and check that JAX refuses the updates'
        with pytest.raises(NotImplementedError, match="unique_indices"):
            jax_vjp(name, args, kwargs, ct)
        op = gs.get_op(name)
        b = inspect.signature(op.lower).bind(*args, **kwargs)
        data_name = op.info.differentiable[0]
        fn = _jax_fn(name, b, [data_name])
        j_out, pb = jax.vjp(fn, jnp.asarray(b.arguments[data_name]))
        j_grads = {data_name: np.asarray(pb(jnp.asarray(ct))[0])}
    else:
        j_out, j_grads = jax_vjp(name, args, kwargs, ct)
    np.testing.assert_allclose(our_out, j_out, rtol=1e-12)
    for n, g in j_grads.items():
        np.testing.assert_allclose(our_grads[n], g, rtol=1e-10, atol=1e-12, err_msg=f"d{n}")


def test_every_jax_op_is_compared() -> None:
    compared = {p.values[0] for p in PARAMS}
    # the segment reductions (issue 18) have no vjp comparison yet: their tie/duplicate gradient conventions
    # (torch gives every tied max the full gradient; JAX scatter_mul needs unique ids) are not reproduced yet
    pending = {op.info.qualname for op in gs.ops("jax") if op.lower.__module__.endswith((".segment", ".segment_reduce"))}
    assert compared == {op.info.qualname for op in gs.ops("jax")} - pending


def test_mul_with_duplicate_indices_raises() -> None:
    with pytest.raises(gs.UnsupportedError, match="unique"):
        gs.vjp(gs.jax.at_multiply, np.ones(3), (I([0, 0]),), np.ones(2))
