"""gs.vjp of every ``gs.tensorflow`` op against ``tf.GradientTape`` (opt-in: pytest -m tensorflow).

``device='cpu'`` and ``'gpu'`` calls are compared with eager CPU TensorFlow where
the input is valid on CPU; ``device='xla'`` calls with ``tf.function(jit_compile=True)``.
"""

from __future__ import annotations

import inspect
import os
from typing import Any

import numpy as np
import pytest

import gatherscatter as gs

from ._compare import ours, variants
from .cases import Args, I, R

pytestmark = [pytest.mark.tensorflow]

EXTRA: dict[str, list[tuple[str, Any]]] = {
    "tensorflow.tensor_scatter_nd_update": [("dups", lambda r: ((R(r, 4, 2), I([[1], [3], [1]]), R(r, 3, 2)), {}))],
    "tensorflow.tensor_scatter_nd_max": [("ties", lambda r: ((np.array([2.0, 1.0]), I([[0], [0], [1]]), np.array([2.0, 2.0, 0.5])), {}))],
    "tensorflow.tensor_scatter_nd_min": [("ties", lambda r: ((np.array([2.0, 1.0]), I([[0], [0], [1]]), np.array([2.0, 2.0, 0.5])), {}))],
    "tensorflow.gather": [("xla-oob", lambda r: ((R(r, 4), I([5, 1, 1])), {"device": "xla"}))],
    "tensorflow.gather_nd": [("xla-oob", lambda r: ((R(r, 4, 2), I([[5, 0], [1, 1]])), {"device": "xla"}))],
}


def tf_vjp(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], ct: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = pytest.importorskip("tensorflow")
    op = gs.get_op(name)
    bound = inspect.signature(op.lower).bind(*args, **kwargs)
    a = dict(bound.arguments)
    device = a.pop("device", "cpu")
    a.pop("bad_indices_policy", None)
    diff = [n for n in op.info.differentiable if isinstance(a.get(n), np.ndarray)]
    fn = getattr(tf, op.info.name) if hasattr(tf, op.info.name) else getattr(tf.compat.v1, op.info.name)

    def run(*xs: Any) -> Any:
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            v = dict(a)
            v.update(zip(diff, xs, strict=True))
            out = fn(**v)
        grads = tape.gradient(out, list(xs), output_gradients=tf.constant(ct))
        # densify inside the (possibly compiled) function: IndexedSlices -> unsorted segment sum
        return out, [tf.convert_to_tensor(g) for g in grads]

    if device == "xla":
        run = tf.function(run, jit_compile=True)
    out, grads = run(*[tf.constant(a[n]) for n in diff])
    return out.numpy(), {n: np.asarray(tf.convert_to_tensor(g)) for n, g in zip(diff, grads, strict=True)}


def _params() -> list[Any]:
    res = []
    for op in gs.ops("tensorflow"):
        name = op.info.qualname
        for vid, args, kwargs in variants(name, EXTRA.get(name)):
            if kwargs.get("device") == "gpu":
                continue  # no GPU here: covered by the finite-difference suite
            res.append(pytest.param(name, args, kwargs, id=f"{name}-{vid}"))
    return res


PARAMS = _params()


@pytest.mark.parametrize(("name", "args", "kwargs"), PARAMS)
def test_vjp_matches_gradient_tape(name: str, args: Args, kwargs: dict[str, Any]) -> None:
    rng = np.random.default_rng(3)
    out = gs.get_op(name)(*args, **kwargs)
    ct = rng.normal(size=out.shape)
    t_out, t_grads = tf_vjp(name, args, kwargs, ct)
    our_out, our_grads = ours(name, args, kwargs, ct)
    np.testing.assert_allclose(our_out, t_out, rtol=1e-12)
    assert set(our_grads) == set(t_grads)
    for n, g in our_grads.items():
        np.testing.assert_allclose(g, t_grads[n], rtol=1e-10, atol=1e-12, err_msg=f"d{n}")


def test_every_tensorflow_op_is_compared() -> None:
    compared = {p.values[0] for p in PARAMS}
    # the segment reductions and embedding_lookup (issue 18) have no vjp comparison yet
    new = (".segment", ".embedding_lookup")
    pending = {op.info.qualname for op in gs.ops("tensorflow") if op.lower.__module__.endswith(new)}
    assert compared == {op.info.qualname for op in gs.ops("tensorflow")} - pending
