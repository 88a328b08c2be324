"""Python emitters for every adapter, per target (NumPy, the neutral API, JAX, torch, TensorFlow, Paddle, MXNet).

Each target spells a small :class:`Api` (``where``, ``reshape``, ``astype`` ...)
with its own functions, so the generated code calls the framework's real API
(``torch.where``, ``tf.cast``, ``paddle.unsqueeze`` ...); the adapters of
:mod:`.adapters` are traced through :class:`~.adapters.PyVocab` over that Api,
the others are written here once against it. Axis sizes are read
from the data at run time, so the code is rank- and shape-generic. Adapters
too long for one expression call a helper function written in the target's
API; :func:`..codegen.function_code` defines the helpers a function uses.
MXNet code runs the adapters in NumPy on the host (``asnumpy()``) and the ops
in ``mx.nd`` (MXNet 1.9 has no 0-d or empty arrays and few index utilities).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import dialects as _d
from ..dialects._registry import qn
from ..errors import UnsupportedError
from .adapters import PyVocab
from .codegen import SHARED_HELPERS, CodeTarget, Emit, adapter_emitters, collect, function_code
from .ir import Step

if TYPE_CHECKING:
    from . import Translation

A = dict[str, str]
K = dict[str, Any]


def lit(v: Any) -> str:
    """A Python literal for an attribute value (NaN and infinities included)."""
    if isinstance(v, (bool, np.bool_)):
        return repr(bool(v))
    if isinstance(v, (int, np.integer)):
        return repr(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f):
            return "float('nan')"
        if math.isinf(f):
            return "float('inf')" if f > 0 else "float('-inf')"
        return repr(f)
    if isinstance(v, np.ndarray):
        return lit(v.item()) if v.ndim == 0 else repr(v.tolist())
    return repr(v)


class Api:
    """Code snippets of one target's array API (this base class: NumPy)."""

    m = "np"

    def dt(self, name: str) -> str:
        return f"{self.m}.{name}"

    def astype(self, x: str, dtype: str) -> str:
        return f"{x}.astype({dtype})"

    def const(self, v: str, dtype: str) -> str:
        return f"{self.m}.asarray({v}).astype({dtype})"

    def where(self, c: str, x: str, y: str) -> str:
        return f"{self.m}.where({c}, {x}, {y})"

    def reshape(self, x: str, shape: str) -> str:
        return f"{self.m}.reshape({x}, {shape})"

    def moveaxis(self, x: str, s: Any, d: Any) -> str:
        return f"{self.m}.moveaxis({x}, {s}, {d})"

    def expand_dims(self, x: str, a: Any) -> str:
        return f"{self.m}.expand_dims({x}, {a})"

    def squeeze(self, x: str, a: Any) -> str:
        return f"{self.m}.squeeze({x}, {a})"

    def stack(self, seq: str, axis: Any) -> str:
        return f"{self.m}.stack({seq}, axis={axis})"

    def broadcast_to(self, x: str, shape: str) -> str:
        return f"{self.m}.broadcast_to({x}, {shape})"

    def zeros(self, shape: str, dtype: str) -> str:
        return f"{self.m}.zeros({shape}, dtype={dtype})"

    def zeros_like(self, x: str) -> str:
        return f"{self.m}.zeros_like({x})"

    def ones_like(self, x: str) -> str:
        return f"{self.m}.ones_like({x})"

    def full_like(self, x: str, v: str) -> str:
        return f"{self.m}.full_like({x}, {v})"

    def all_last(self, x: str) -> str:
        return f"{self.m}.all({x}, axis=-1)"

    def minimum(self, x: str, y: str) -> str:
        return f"{self.m}.minimum({x}, {y})"

    def maximum(self, x: str, y: str) -> str:
        return f"{self.m}.maximum({x}, {y})"

    def clip(self, x: str, lo: str, hi: str) -> str:
        """Clamp with Python-int bounds."""
        return f"{self.m}.clip({x}, {lo}, {hi})"

    def arange(self, n: str) -> str:
        """``0, 1, ..., n - 1`` in int64."""
        return f"{self.m}.arange({n}, dtype={self.m}.int64)"

    def sum_last(self, x: str) -> str:
        return f"{self.m}.sum({x}, axis=-1)"

    def dtype_name(self, x: str) -> str:
        return f"{x}.dtype.name"

    def is_int(self, x: str) -> str:
        return f"{x}.dtype.kind in 'iu'"

    def is_bool(self, x: str) -> str:
        return f"{x}.dtype.kind == 'b'"

    def as_bool(self, x: str) -> str:
        return f"{x}.astype(bool)"

    def trunc_div(self, t: str, c: str) -> str:
        return f"{self.m}.trunc({t} / {c}).astype({t}.dtype)"

    def true_div(self, t: str, c: str) -> str:
        return f"({t} / {c}).astype({t}.dtype)"

    def logical(self, op: str, x: str, y: str) -> str:
        return f"{self.m}.logical_{op}({x}, {y})"

    def flat(self, x: str) -> str:
        return self.reshape(x, "(-1,)")

    def tile(self, x: str, n: str) -> str:
        return f"{self.m}.tile({x}, {n})"


class JaxApi(Api):
    m = "jnp"

    def const(self, v: str, dtype: str) -> str:
        return f"jnp.asarray({v}).astype({dtype})"



class TorchApi(Api):
    m = "torch"

    def astype(self, x: str, dtype: str) -> str:
        return f"{x}.to({dtype})"

    def const(self, v: str, dtype: str) -> str:
        return f"torch.as_tensor(np.asarray({v})).to({dtype})"

    def expand_dims(self, x: str, a: Any) -> str:
        return f"torch.unsqueeze({x}, {a})"

    def stack(self, seq: str, axis: Any) -> str:
        return f"torch.stack({seq}, dim={axis})"

    def all_last(self, x: str) -> str:
        return f"torch.all({x}, dim=-1)"

    def clip(self, x: str, lo: str, hi: str) -> str:
        return f"torch.clamp({x}, {lo}, {hi})"

    def sum_last(self, x: str) -> str:
        return f"torch.sum({x}, dim=-1)"

    def dtype_name(self, x: str) -> str:
        return f"str({x}.dtype).split('.')[-1]"

    def is_int(self, x: str) -> str:
        return f"not ({x}.dtype.is_floating_point or {x}.dtype.is_complex or {x}.dtype == torch.bool)"

    def is_bool(self, x: str) -> str:
        return f"{x}.dtype == torch.bool"

    def as_bool(self, x: str) -> str:
        return f"{x}.to(torch.bool)"

    def trunc_div(self, t: str, c: str) -> str:
        return f"torch.div({t}, {c}, rounding_mode='trunc')"

    def true_div(self, t: str, c: str) -> str:
        return f"({t} / {c}).to({t}.dtype)"

    def tile(self, x: str, n: str) -> str:
        return f"{x}.repeat({n})"


class TfApi(Api):
    m = "tf"

    def astype(self, x: str, dtype: str) -> str:
        return f"tf.cast({x}, {dtype})"

    def const(self, v: str, dtype: str) -> str:
        return f"tf.cast(np.asarray({v}), {dtype})"

    def reshape(self, x: str, shape: str) -> str:
        return f"tf.reshape({x}, {shape})"

    def moveaxis(self, x: str, s: Any, d: Any) -> str:
        return f"tf.experimental.numpy.moveaxis({x}, {s}, {d})"

    def squeeze(self, x: str, a: Any) -> str:
        return f"tf.squeeze({x}, axis={a})"

    def full_like(self, x: str, v: str) -> str:
        return f"tf.fill(tf.shape({x}), tf.cast(np.asarray({v}), {x}.dtype))"

    def all_last(self, x: str) -> str:
        return f"tf.reduce_all({x}, axis=-1)"

    def clip(self, x: str, lo: str, hi: str) -> str:
        return f"tf.clip_by_value({x}, {lo}, {hi})"

    def arange(self, n: str) -> str:
        return f"tf.range({n}, dtype=tf.int64)"

    def sum_last(self, x: str) -> str:
        return f"tf.reduce_sum({x}, axis=-1)"

    def is_int(self, x: str) -> str:
        return f"{x}.dtype.is_integer"

    def is_bool(self, x: str) -> str:
        return f"{x}.dtype.is_bool"

    def as_bool(self, x: str) -> str:
        return f"tf.cast({x}, tf.bool)"

    def trunc_div(self, t: str, c: str) -> str:
        return f"tf.truncatediv({t}, {c})"

    def true_div(self, t: str, c: str) -> str:
        return f"tf.cast({t} / {c}, {t}.dtype)"

    def logical(self, op: str, x: str, y: str) -> str:
        return f"tf.math.logical_{op}({x}, {y})"

    def tile(self, x: str, n: str) -> str:
        return f"tf.tile({x}, [{n}])"


class PaddleApi(Api):
    m = "paddle"

    def astype(self, x: str, dtype: str) -> str:
        return f"paddle.cast({x}, {dtype})"

    def const(self, v: str, dtype: str) -> str:
        return f"paddle.cast(paddle.to_tensor(np.asarray({v})), {dtype})"

    def reshape(self, x: str, shape: str) -> str:
        return f"paddle.reshape({x}, list({shape}))"

    def expand_dims(self, x: str, a: Any) -> str:
        return f"paddle.unsqueeze({x}, {a})"

    def broadcast_to(self, x: str, shape: str) -> str:
        return f"paddle.broadcast_to({x}, list({shape}))"

    def full_like(self, x: str, v: str) -> str:
        return self.broadcast_to(self.const(v, f"{x}.dtype"), f"{x}.shape")

    def where(self, c: str, x: str, y: str) -> str:
        return f"_where({c}, {x}, {y})"

    def zeros(self, shape: str, dtype: str) -> str:
        return f"paddle.zeros(list({shape}), dtype={dtype})"


    def dtype_name(self, x: str) -> str:
        return f"str({x}.dtype).split('.')[-1]"

    def is_int(self, x: str) -> str:
        return f"not (paddle.is_floating_point({x}) or paddle.is_complex({x}) or {x}.dtype == paddle.bool)"

    def is_bool(self, x: str) -> str:
        return f"{x}.dtype == paddle.bool"

    def as_bool(self, x: str) -> str:
        return f"paddle.cast({x}, 'bool')"

    def trunc_div(self, t: str, c: str) -> str:
        return f"paddle.cast(paddle.trunc(paddle.cast({t}, 'float64') / paddle.cast({c}, 'float64')), {t}.dtype)"

    def true_div(self, t: str, c: str) -> str:
        return f"paddle.cast({t} / {c}, {t}.dtype)"

    def tile(self, x: str, n: str) -> str:
        return f"paddle.tile({x}, [{n}])"


# ------------------------------------------------------------------------------------------------ helpers


def _helpers(api: Api) -> dict[str, str]:
    """Helper functions for the vocabulary primitives too long for one expression, in ``api``'s framework."""
    h: dict[str, str] = dict(SHARED_HELPERS)
    h["_align"] = f'''def _align(mask, y, lead):
    """``mask`` reshaped so its dims sit at dim ``lead`` of ``y`` (size-1 dims elsewhere)."""
    shape = (1,) * lead + tuple(mask.shape) + (1,) * (len(y.shape) - lead - len(mask.shape))
    return {api.reshape("mask", "shape")}
'''
    h["_sizes"] = f'''def _sizes(data, i, batch_dims):
    """The sizes of the data dims the index tuples (last axis of ``i``) address, in ``i``'s dtype."""
    return {api.const("list(data.shape)[batch_dims:batch_dims + i.shape[-1]]", "i.dtype")}
'''
    h["_iota"] = f'''def _iota(shape, d):
    """The int64 index grid of dim ``d`` over ``shape`` (``np.indices(shape)[d]``)."""
    line = {api.reshape(api.arange("shape[d]"), "(1,) * d + (-1,) + (1,) * (len(shape) - d - 1)")}
    return {api.broadcast_to("line", "shape")}
'''
    if api.m == "paddle":
        h["_where"] = '''def _where(c, x, y):
    """paddle.where, also for the integer dtypes its kernel lacks (int8/int16/uint8: computed in int64)."""
    if x.dtype in (paddle.int8, paddle.int16, paddle.uint8):
        return paddle.cast(paddle.where(c, paddle.cast(x, "int64"), paddle.cast(y, "int64")), x.dtype)
    return paddle.where(c, x, y)
'''
    h["_off_axis_shape"] = '''def _off_axis_shape(a, b, axis):
    """Broadcast ``a`` and ``b`` on every dim but ``axis``; ``a``'s size on ``axis``."""
    ax = axis % len(a.shape)
    off_a = tuple(a.shape[:ax]) + tuple(a.shape[ax + 1:])
    rest = np.broadcast_shapes(off_a, tuple(b.shape[:ax]) + tuple(b.shape[ax + 1:]))
    return tuple(rest[:ax]) + (a.shape[ax],) + tuple(rest[ax:])
'''
    return h


# --------------------------------------------------------------------------------------------- op emitters


def _kw(attrs: K, *names: str, drop_none: bool = True) -> str:
    parts = [f"{n}={lit(attrs[n])}" for n in names if n in attrs and not (drop_none and attrs[n] is None)]
    return (", " + ", ".join(parts)) if parts else ""


def _numpy_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    def inplace(call: str, s: Step, base: str) -> list[str]:
        return [f"{s.out} = np.array({base}, copy=True)", call]

    @op(qn(_d.numpy.take))
    def _(s: Step, a: A, k: K) -> str:
        return f"np.take({a['a']}, {a['indices']}, axis={lit(k.get('axis'))}, mode={lit(k.get('mode') or 'raise')})"

    @op(qn(_d.numpy.take_along_axis))
    def _(s: Step, a: A, k: K) -> str:
        return f"np.take_along_axis({a['arr']}, {a['indices']}, axis={lit(k.get('axis'))})"

    @op(qn(_d.numpy.put))
    def _(s: Step, a: A, k: K) -> list[str]:
        return inplace(f"np.put({s.out}, {a['ind']}, {a['v']}, mode={lit(k.get('mode') or 'raise')})", s, a["a"])

    @op(qn(_d.numpy.put_along_axis))
    def _(s: Step, a: A, k: K) -> list[str]:
        return inplace(f"np.put_along_axis({s.out}, {a['indices']}, {a['values']}, axis={lit(k.get('axis'))})", s,
                       a["arr"])

    for name, ufunc in (("add_at", "add"), ("subtract_at", "subtract"), ("multiply_at", "multiply"),
                        ("maximum_at", "maximum"), ("minimum_at", "minimum")):

        def emit(s: Step, a: A, k: K, ufunc: str = ufunc) -> list[str]:
            return inplace(f"np.{ufunc}.at({s.out}, {a['indices']}, {a['b']})", s, a["a"])

        op(qn(getattr(_d.numpy, name)))(emit)
    return ops


def _jax_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    @op(qn(_d.jax.take))
    def _(s: Step, a: A, k: K) -> str:
        return f"jnp.take({a['a']}, {a['indices']}, axis={lit(k.get('axis'))}{_kw(k, 'mode', 'fill_value')})"

    @op(qn(_d.jax.take_along_axis))
    def _(s: Step, a: A, k: K) -> str:
        return f"jnp.take_along_axis({a['arr']}, {a['indices']}, axis={lit(k.get('axis'))}" \
               f"{_kw(k, 'mode', 'fill_value')})"

    @op(qn(_d.jax.at_get))
    def _(s: Step, a: A, k: K) -> str:
        return f"jnp.asarray({a['x']}).at[{a['idx']}].get({_kw(k, 'mode', 'fill_value')[2:]})"

    for name, method in (("at_set", "set"), ("at_add", "add"), ("at_multiply", "multiply"), ("at_min", "min"),
                         ("at_max", "max")):

        def emit(s: Step, a: A, k: K, method: str = method) -> str:
            return f"jnp.asarray({a['x']}).at[{a['idx']}].{method}({a['values']}{_kw(k, 'mode')})"

        op(qn(getattr(_d.jax, name)))(emit)
    return ops


def _lax_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    def dn(v: Any) -> str:
        fields = ", ".join(f"{f}={tuple(getattr(v, f))!r}" for f in v._fields[:3])  # no batching dims
        return f"lax.{type(v).__name__}({fields})"

    @op(qn(_d.jax.lax.gather))
    def _(s: Step, a: A, k: K) -> str:
        return f"lax.gather(jnp.asarray({a['operand']}), {a['start_indices']}, {dn(k['dimension_numbers'])}, " \
               f"{tuple(k['slice_sizes'])!r}{_kw(k, 'mode', 'fill_value')})"

    for fn in (_d.jax.lax.scatter, _d.jax.lax.scatter_add, _d.jax.lax.scatter_mul, _d.jax.lax.scatter_max,
               _d.jax.lax.scatter_min):

        def emit(s: Step, a: A, k: K, name: str = fn.info.name) -> str:
            return f"{name}(jnp.asarray({a['operand']}), {a['scatter_indices']}, jnp.asarray({a['updates']}), " \
                   f"{dn(k['dimension_numbers'])}{_kw(k, 'mode')})"

        op(qn(fn))(emit)
    return ops


def _torch_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    @op(qn(_d.torch.index_select))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.index_select({a['input']}, {k['dim']}, {a['index']})"

    @op(qn(_d.torch.gather))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.gather({a['input']}, {k['dim']}, {a['index']})"

    @op(qn(_d.torch.take))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.take({a['input']}, {a['index']})"

    @op(qn(_d.torch.take_along_dim))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.take_along_dim({a['input']}, {a['indices']}, dim={lit(k.get('dim'))})"

    @op(qn(_d.torch.scatter))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.scatter({a['input']}, {k['dim']}, {a['index']}, {a['src']})"

    @op(qn(_d.torch.scatter_reduce))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.scatter_reduce({a['input']}, {k['dim']}, {a['index']}, {a['src']}, " \
               f"reduce={lit(k['reduce'])}, include_self={lit(k.get('include_self', True))})"

    @op(qn(_d.torch.index_put))
    def _(s: Step, a: A, k: K) -> str:
        return f"torch.index_put({a['input']}, {a['indices']}, {a['values']}, " \
               f"accumulate={lit(k.get('accumulate', False))})"
    return ops


def _tf_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    @op(qn(_d.tensorflow.gather))
    def _(s: Step, a: A, k: K) -> str:
        return f"tf.gather({a['params']}, {a['indices']}, axis={lit(k.get('axis'))}" \
               f"{_kw(k, 'batch_dims')})"

    @op(qn(_d.tensorflow.gather_nd))
    def _(s: Step, a: A, k: K) -> str:
        return f"tf.gather_nd({a['params']}, {a['indices']}{_kw(k, 'batch_dims')})"

    for name in ("update", "add", "sub", "max", "min"):

        def emit(s: Step, a: A, k: K, name: str = name) -> str:
            return f"tf.tensor_scatter_nd_{name}({a['tensor']}, {a['indices']}, {a['updates']})"

        op(qn(getattr(_d.tensorflow, f"tensor_scatter_nd_{name}")))(emit)
    return ops


def _paddle_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    @op(qn(_d.paddle.gather))
    def _(s: Step, a: A, k: K) -> str:
        return f"paddle.gather({a['x']}, {a['index']}, axis={lit(k.get('axis'))})"

    @op(qn(_d.paddle.gather_nd))
    def _(s: Step, a: A, k: K) -> str:
        return f"paddle.gather_nd({a['x']}, {a['index']})"

    @op(qn(_d.paddle.take_along_axis))
    def _(s: Step, a: A, k: K) -> str:
        return f"paddle.take_along_axis({a['arr']}, {a['indices']}, axis={lit(k['axis'])}" \
               f"{_kw(k, 'broadcast')})"

    @op(qn(_d.paddle.put_along_axis))
    def _(s: Step, a: A, k: K) -> str:
        return f"paddle.put_along_axis({a['arr']}, {a['indices']}, {a['values']}, axis={lit(k['axis'])}" \
               f"{_kw(k, 'reduce', 'include_self', 'broadcast')})"

    @op(qn(_d.paddle.scatter_nd_add))
    def _(s: Step, a: A, k: K) -> str:
        return f"paddle.scatter_nd_add({a['x']}, {a['index']}, {a['updates']})"
    return ops


def _mxnet_ops() -> dict[str, Emit]:
    ops: dict[str, Emit] = {}
    op = collect(ops)

    @op(qn(_d.mxnet.take))
    def _(s: Step, a: A, k: K) -> str:
        return f"_np(mx.nd.take(_nd({a['a']}), _nd({a['indices']}), axis={lit(k.get('axis', 0))}, " \
               f"mode={lit(k.get('mode') or 'clip')}))"

    @op(qn(_d.mxnet.gather_nd))
    def _(s: Step, a: A, k: K) -> str:
        return f"_np(mx.nd.gather_nd(_nd({a['data']}), _nd({a['indices']})))"

    @op(qn(_d.mxnet.scatter_nd))
    def _(s: Step, a: A, k: K) -> str:
        return f"_np(mx.nd.scatter_nd(_nd({a['data']}), _nd({a['indices']}), shape={a['shape']}))"
    return ops


_MX_HEADER = '''import math

import mxnet as mx
import numpy as np


def _np(x):
    """A host NumPy array (MXNet 1.9 index utilities are few: the adapters run in NumPy)."""
    if isinstance(x, mx.nd.NDArray):
        return x.asnumpy()
    if isinstance(x, (tuple, list)):
        return type(x)(_np(v) for v in x)
    return np.asarray(x)


def _nd(x):
    """An MXNet NDArray of ``x``'s dtype."""
    return mx.nd.array(x, dtype=x.dtype)'''

_HEADERS = {
    "numpy": "import math\n\nimport numpy as np",
    "gatherscatter": "import math\n\nimport numpy as np\n\nimport gatherscatter as gs",
    "jax": "import math\n\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n\n"
           "jax.config.update(\"jax_enable_x64\", True)",
    "lax": "import math\n\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\nfrom jax import lax\n\n"
           "jax.config.update(\"jax_enable_x64\", True)",
    "torch": "import math\n\nimport numpy as np\nimport torch",
    "tensorflow": "import math\n\nimport numpy as np\nimport tensorflow as tf",
    "paddle": "import math\n\nimport numpy as np\nimport paddle",
    "mxnet": _MX_HEADER,
}


def _target(name: str, module: str, api: Api, ops: dict[str, Emit], **kw: Any) -> CodeTarget:
    return CodeTarget(name, _HEADERS[name], module, _helpers(api), adapter_emitters(PyVocab(api)), ops, **kw)


#: every Python code target: its imports, op module, helpers, adapter and op emitters
TARGETS: dict[str, CodeTarget] = {
    "numpy": _target("numpy", "np", Api(), _numpy_ops()),
    "gatherscatter": _target("gatherscatter", "gs", Api(), {}),
    "jax": _target("jax", "jnp", JaxApi(), _jax_ops()),
    "lax": _target("lax", "jnp", JaxApi(), _lax_ops()),
    "torch": _target("torch", "torch", TorchApi(), _torch_ops()),
    "tensorflow": _target("tensorflow", "tf", TfApi(), _tf_ops()),
    "paddle": _target("paddle", "paddle", PaddleApi(), _paddle_ops()),
    "mxnet": _target("mxnet", "mx.nd", Api(), _mxnet_ops(),
                     prologue=lambda inputs: [f"{n} = _np({n})" for n in inputs],
                     epilogue=lambda out: f"return _nd({out}) if np.ndim({out}) else {out}"),
}
HEADER = {name: t.header for name, t in TARGETS.items()}
ADAPTER_EMIT = {name: t.adapters for name, t in TARGETS.items()}


def generate(t: Translation) -> str:
    """The Python code of translation ``t`` (a function ``translated(<source inputs>)``)."""
    target = TARGETS.get(t.target)
    if target is None:
        raise UnsupportedError(f"codegen: no code generator for target {t.target!r}")
    attrs = ", ".join(f"{k}={v!r}" for k, v in t.source.attrs.items())
    doc = f"{t.source.op}({attrs}) in {t.target}, generated by gatherscatter.translate."
    return function_code(target, t.source.inputs, t.steps, t.program.output, doc)
