"""Python emitters for every adapter, per target (NumPy, the neutral API, JAX, torch, TensorFlow, Paddle, MXNet).

Each target spells a small :class:`Api` (``where``, ``reshape``, ``astype`` ...)
with its own functions, so the generated code calls the framework's real API
(``torch.where``, ``tf.cast``, ``paddle.unsqueeze`` ...): the adapters of
:mod:`.adapters` are traced through :class:`~.adapters.PyVocab` over that Api,
reading axis sizes at run time (rank- and shape-generic code); primitives too
long for one expression call a helper written in the target's API (:func:`_helpers`).
MXNet code runs the adapters in NumPy on the host (``asnumpy()``) and the ops
in ``mx.nd`` (MXNet 1.9 has no 0-d or empty arrays and few index utilities).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import dialects as _d
from ..dialects._registry import qn
from ..errors import UnsupportedError
from .adapters import PyVocab
from .codegen import SHARED_HELPERS, CodeTarget, Emit, adapter_emitters, function_code
from .ir import Step

if TYPE_CHECKING:
    from . import Translation


def lit(v: Any) -> str:
    """A Python literal for an attribute value (NaN and infinities included; JAX dimension numbers as ``lax.``
    calls, without batching dims)."""
    if isinstance(v, np.ndarray):
        return lit(v.item()) if v.ndim == 0 else repr(v.tolist())
    if isinstance(v, (bool, np.bool_)):
        return repr(bool(v))
    if isinstance(v, (int, np.integer)):
        return repr(int(v))
    if isinstance(v, (float, np.floating)) and not math.isfinite(v):
        return "float('nan')" if math.isnan(v) else "float('inf')" if v > 0 else "float('-inf')"
    if hasattr(v, "_fields"):
        return f"lax.{type(v).__name__}({', '.join(f'{f}={tuple(getattr(v, f))!r}' for f in v._fields[:3])})"
    return repr(float(v)) if isinstance(v, np.floating) else repr(v)


def kw(attrs: dict[str, Any], *names: str) -> str:
    """``, name=value, ...`` for the attributes ``names`` given (not None)."""
    return "".join(f", {n}={lit(attrs[n])}" for n in names if attrs.get(n) is not None)


def _fill(template: str, step: Step, a: dict[str, str], k: dict[str, Any]) -> str | list[str]:
    class Fields(dict[str, str]):
        def __missing__(self, key: str) -> str:
            if key[0] in ",~":
                return kw(k, *key[1:].split(","))[0 if key[0] == "," else 2 :]
            name, _, default = key.partition("|")
            v = k.get(name)
            return lit(ast.literal_eval(default) if v is None and default else v)

    text = template.format_map(Fields(a, out=step.out))
    return text.split("\n") if "\n" in text else text


def templates(table: dict[str, str]) -> dict[str, Emit]:
    """Emitters from templates: ``{x}`` is the tensor argument ``x`` or the attribute ``x``'s literal, ``{x|d}``
    an attribute with a default, ``{,a,b}`` the keywords ``, a=..., b=...`` given (``{~a,b}``: no leading
    comma), ``{out}`` the step's output; a template of several lines is statements."""
    return {name: partial(_fill, template) for name, template in table.items()}


class Api:
    """Code snippets of one target's array API (this base class: NumPy): ``FORMS`` spells each snippet, ``{0}``,
    ``{1}`` ... its arguments and ``{m}`` the module; ``api.where("c", "x", "y")`` is ``np.where(c, x, y)``."""

    m = "np"
    FORMS: ClassVar[dict[str, str]] = {
        "dt": "{m}.{0}", "astype": "{0}.astype({1})", "const": "{m}.asarray({0}).astype({1})",
        "where": "{m}.where({0}, {1}, {2})", "reshape": "{m}.reshape({0}, {1})",
        "moveaxis": "{m}.moveaxis({0}, {1}, {2})", "expand_dims": "{m}.expand_dims({0}, {1})",
        "squeeze": "{m}.squeeze({0}, {1})",
        "stack": "{m}.stack({0}, axis={1})", "broadcast_to": "{m}.broadcast_to({0}, {1})",
        "zeros": "{m}.zeros({0}, dtype={1})", "zeros_like": "{m}.zeros_like({0})", "ones_like": "{m}.ones_like({0})",
        "full_like": "{m}.full_like({0}, {1})", "all_last": "{m}.all({0}, axis=-1)", "minimum": "{m}.minimum({0}, {1})",
        "maximum": "{m}.maximum({0}, {1})", "clip": "{m}.clip({0}, {1}, {2})",  # clip: Python-int bounds
        "arange": "{m}.arange({0}, dtype={m}.int64)", "sum_last": "{m}.sum({0}, axis=-1)", "sum": "{m}.sum({0}, {1})",
        "dtype_name": "{0}.dtype.name", "is_int": "{0}.dtype.kind in 'iu'", "is_bool": "{0}.dtype.kind == 'b'",
        "as_bool": "{0}.astype(bool)", "trunc_div": "{m}.trunc({0} / {1}).astype({0}.dtype)",
        "true_div": "({0} / {1}).astype({0}.dtype)", "logical": "{m}.logical_{0}({1}, {2})",
        "flat": "{m}.reshape({0}, (-1,))", "tile": "{m}.tile({0}, {1})", "dt_of": "getattr({m}, {0})"}

    def __getattr__(self, name: str) -> Callable[..., str]:
        form = type(self).FORMS.get(name)
        if form is None:
            raise AttributeError(name)
        return lambda *args: form.format(*args, m=self.m)


class JaxApi(Api):
    m = "jnp"


class TorchApi(Api):
    m = "torch"
    FORMS: ClassVar[dict[str, str]] = {
        **Api.FORMS, "astype": "{0}.to({1})", "const": "torch.as_tensor(np.asarray({0})).to({1})",
        "expand_dims": "torch.unsqueeze({0}, {1})", "stack": "torch.stack({0}, dim={1})",
        "all_last": "torch.all({0}, dim=-1)", "clip": "torch.clamp({0}, {1}, {2})",
        "sum_last": "torch.sum({0}, dim=-1)",
        "dtype_name": "str({0}.dtype).split('.')[-1]",
        "is_int": "not ({0}.dtype.is_floating_point or {0}.dtype.is_complex or {0}.dtype == torch.bool)",
        "is_bool": "{0}.dtype == torch.bool", "as_bool": "{0}.to(torch.bool)",
        "trunc_div": "torch.div({0}, {1}, rounding_mode='trunc')", "true_div": "({0} / {1}).to({0}.dtype)",
        "tile": "{0}.repeat({1})"}


class TfApi(Api):
    m = "tf"
    FORMS: ClassVar[dict[str, str]] = {
        **Api.FORMS, "astype": "tf.cast({0}, {1})", "const": "tf.cast(np.asarray({0}), {1})",
        "reshape": "tf.reshape({0}, {1})", "moveaxis": "tf.experimental.numpy.moveaxis({0}, {1}, {2})",
        "squeeze": "tf.squeeze({0}, axis={1})",
        "full_like": "tf.fill(tf.shape({0}), tf.cast(np.asarray({1}), {0}.dtype))",
        "all_last": "tf.reduce_all({0}, axis=-1)", "clip": "tf.clip_by_value({0}, {1}, {2})",
        "arange": "tf.range({0}, dtype=tf.int64)", "sum_last": "tf.reduce_sum({0}, axis=-1)",
        "sum": "tf.reduce_sum({0}, {1})",
        "is_int": "{0}.dtype.is_integer", "is_bool": "{0}.dtype.is_bool", "as_bool": "tf.cast({0}, tf.bool)",
        "trunc_div": "tf.truncatediv({0}, {1})", "true_div": "tf.cast({0} / {1}, {0}.dtype)",
        "logical": "tf.math.logical_{0}({1}, {2})", "flat": "tf.reshape({0}, (-1,))", "tile": "tf.tile({0}, [{1}])"}


class PaddleApi(Api):
    m = "paddle"
    FORMS: ClassVar[dict[str, str]] = {
        **Api.FORMS, "astype": "paddle.cast({0}, {1})", "const": "paddle.cast(paddle.to_tensor(np.asarray({0})), {1})",
        "reshape": "paddle.reshape({0}, list({1}))", "expand_dims": "paddle.unsqueeze({0}, {1})",
        "broadcast_to": "paddle.broadcast_to({0}, list({1}))",
        "full_like": "paddle.broadcast_to(paddle.cast(paddle.to_tensor(np.asarray({1})), {0}.dtype), list({0}.shape))",
        "where": "_where({0}, {1}, {2})", "zeros": "paddle.zeros(list({0}), dtype={1})",
        "dtype_name": "str({0}.dtype).split('.')[-1]",
        "is_int": "not (paddle.is_floating_point({0}) or paddle.is_complex({0}) or {0}.dtype == paddle.bool)",
        "is_bool": "{0}.dtype == paddle.bool", "as_bool": "paddle.cast({0}, 'bool')",
        "trunc_div": "paddle.cast(paddle.trunc(paddle.cast({0}, 'float64') / paddle.cast({1}, 'float64')), {0}.dtype)",
        "true_div": "paddle.cast({0} / {1}, {0}.dtype)", "flat": "paddle.reshape({0}, list((-1,)))",
        "tile": "paddle.tile({0}, [{1}])"}


_KDT = "keras.backend.standardize_dtype({0}.dtype)"  # a dtype's name on every backend


class KerasApi(Api):
    m = "keras.ops"
    FORMS: ClassVar[dict[str, str]] = {
        **Api.FORMS, "dt": "'{0}'", "dt_of": "{0}", "astype": "keras.ops.cast({0}, {1})",
        "const": "keras.ops.cast(np.asarray({0}), {1})", "arange": "keras.ops.arange({0}, dtype='int64')",
        "dtype_name": _KDT, "is_int": "'int' in " + _KDT, "is_bool": _KDT + " == 'bool'",
        "as_bool": "keras.ops.cast({0}, 'bool')",
        "trunc_div": "keras.ops.cast(keras.ops.trunc({0} / {1}), {0}.dtype)",
        "true_div": "keras.ops.cast({0} / {1}, {0}.dtype)"}


class MlxApi(Api):
    m = "mx"
    FORMS: ClassVar[dict[str, str]] = {
        **Api.FORMS, "const": "mx.array(np.asarray({0})).astype({1})", "dtype_name": "str({0}.dtype).split('.')[-1]",
        "is_int": "mx.issubdtype({0}.dtype, mx.integer)", "is_bool": "{0}.dtype == mx.bool_",
        "as_bool": "{0}.astype(mx.bool_)", "trunc_div": "({0} / {1}).astype({0}.dtype)",
        "moveaxis": "_moveaxis({0}, {1}, {2})"}


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
    if api.m == "mx":
        h["_moveaxis"] = '''def _moveaxis(x, source, destination):
    """mx.moveaxis for several axes too (MLX's takes one int each): a transpose."""
    order = np.moveaxis(np.broadcast_to(0, range(1, len(x.shape) + 1)), source, destination).shape
    return mx.transpose(x, [n - 1 for n in order])
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


_COPY = "{out} = np.array({%s}, copy=True)\n"  # NumPy's put/at write in place: on a copy
#: every framework op's call by qualname, for every code target (fields: :func:`templates`)
OP_CALLS: dict[str, str] = {
    qn(_d.numpy.take): "np.take({a}, {indices}, axis={axis}, mode={mode|'raise'})",
    qn(_d.numpy.take_along_axis): "np.take_along_axis({arr}, {indices}, axis={axis})",
    qn(_d.numpy.put): _COPY % "a" + "np.put({out}, {ind}, {v}, mode={mode|'raise'})",
    qn(_d.numpy.put_along_axis): _COPY % "arr" + "np.put_along_axis({out}, {indices}, {values}, axis={axis})",
    **{qn(getattr(_d.numpy, f"{ufunc}_at")): _COPY % "a" + f"np.{ufunc}.at({{out}}, {{indices}}, {{b}})"
       for ufunc in ("add", "subtract", "multiply", "maximum", "minimum")},
    qn(_d.jax.take): "jnp.take({a}, {indices}, axis={axis}{,mode,fill_value})",
    qn(_d.jax.take_along_axis): "jnp.take_along_axis({arr}, {indices}, axis={axis}{,mode,fill_value})",
    qn(_d.jax.at_get): "jnp.asarray({x}).at[{idx}].get({~mode,fill_value})",
    **{qn(getattr(_d.jax, f"at_{method}")): f"jnp.asarray({{x}}).at[{{idx}}].{method}({{values}}{{,mode}})"
       for method in ("set", "add", "multiply", "min", "max")},
    qn(_d.jax.lax.gather): "lax.gather(jnp.asarray({operand}), {start_indices}, {dimension_numbers}, {slice_sizes}"
                           "{,mode,fill_value})",
    **{qn(fn): f"{fn.info.name}(jnp.asarray({{operand}}), {{scatter_indices}}, jnp.asarray({{updates}}), "
       "{dimension_numbers}{,mode})" for fn in (_d.jax.lax.scatter, _d.jax.lax.scatter_add, _d.jax.lax.scatter_mul,
                                                _d.jax.lax.scatter_max, _d.jax.lax.scatter_min)},
    qn(_d.torch.index_select): "torch.index_select({input}, {dim}, {index})",
    qn(_d.torch.gather): "torch.gather({input}, {dim}, {index})",
    qn(_d.torch.take): "torch.take({input}, {index})",
    qn(_d.torch.take_along_dim): "torch.take_along_dim({input}, {indices}, dim={dim})",
    qn(_d.torch.scatter): "torch.scatter({input}, {dim}, {index}, {src})",
    qn(_d.torch.scatter_reduce): "torch.scatter_reduce({input}, {dim}, {index}, {src}, reduce={reduce}, "
                                 "include_self={include_self|True})",
    qn(_d.torch.index_put): "torch.index_put({input}, {indices}, {values}, accumulate={accumulate|False})",
    qn(_d.tensorflow.gather): "tf.gather({params}, {indices}, axis={axis}{,batch_dims})",
    qn(_d.tensorflow.gather_nd): "tf.gather_nd({params}, {indices}{,batch_dims})",
    **{qn(getattr(_d.tensorflow, f"tensor_scatter_nd_{name}")): f"tf.tensor_scatter_nd_{name}({{tensor}}, "
       "{indices}, {updates})" for name in ("update", "add", "sub", "max", "min")},
    qn(_d.tflite.GATHER): "tf.gather({params}, {indices}, axis={axis}{,batch_dims})",
    qn(_d.tflite.GATHER_ND): "tf.gather_nd({params}, {indices})", qn(_d.tflite.SCATTER_ND): "tf.scatter_nd("
    "{indices}, {updates}, {shape})", **{qn(getattr(_d.tflite, f"UNSORTED_SEGMENT_{r.upper()}")): f"tf.math.unsorted_"
    f"segment_{r}({{data}}, {{segment_ids}}, tf.reshape({{num_segments}}, []))" for r in ("sum", "prod", "max", "min")},
    qn(_d.paddle.gather): "paddle.gather({x}, {index}, axis={axis})",
    qn(_d.paddle.gather_nd): "paddle.gather_nd({x}, {index})",
    qn(_d.paddle.take_along_axis): "paddle.take_along_axis({arr}, {indices}, axis={axis}{,broadcast})",
    qn(_d.paddle.put_along_axis): "paddle.put_along_axis({arr}, {indices}, {values}, axis={axis}"
                                  "{,reduce,include_self,broadcast})",
    qn(_d.paddle.scatter_nd_add): "paddle.scatter_nd_add({x}, {index}, {updates})",
    qn(_d.mxnet.take): "_np(mx.nd.take(_nd({a}), _nd({indices}), axis={axis|0}, mode={mode|'clip'}))",
    qn(_d.mxnet.gather_nd): "_np(mx.nd.gather_nd(_nd({data}), _nd({indices})))",
    qn(_d.mxnet.scatter_nd): "_np(mx.nd.scatter_nd(_nd({data}), _nd({indices}), shape={shape}))",
    qn(_d.openvino.Gather): "ops.gather({data}, {indices}, _i64({axis}), batch_dims={batch_dims|0})",
    qn(_d.keras.take): "keras.ops.take({x}, {indices}, axis={axis})",
    qn(_d.keras.take_along_axis): "keras.ops.take_along_axis({x}, {indices}, axis={axis})",
    qn(_d.keras.scatter): "keras.ops.scatter({indices}, {values}, {shape})",
    qn(_d.keras.scatter_update): "keras.ops.scatter_update({inputs}, {indices}, {updates}{,reduction})",
    qn(_d.mlx.take): "mx.take({a}, {indices}, axis={axis})",
    qn(_d.mlx.take_along_axis): "mx.take_along_axis({a}, {indices}, axis={axis})",
    qn(_d.mlx.put_along_axis): "mx.put_along_axis({a}, {indices}, {values}, axis={axis})",
    **{qn(getattr(_d.mlx, f"at_{method}")): f"{{a}}.at[{{indices}}].{method}({{values}})"
       for method in ("add", "subtract", "multiply", "maximum", "minimum")},
    qn(_d.openvino.GatherElements): "ops.gather_elements({data}, {indices}, axis={axis})",
    qn(_d.openvino.GatherND): "ops.gather_nd({data}, {indices}, batch_dims={batch_dims|0})",
    qn(_d.openvino.ScatterElementsUpdate): "ops.scatter_elements_update({data}, {indices}, {updates}, _i64({axis}), "
                                           "reduction={reduction|'none'}, use_init_val={use_init_val|True})",
    qn(_d.openvino.ScatterNDUpdate): "ops.scatter_nd_update({data}, {indices}, {updates}, "
                                     "reduction={reduction|'none'})",
}


def op_calls(module: str) -> dict[str, Emit]:
    """The emitters of ``module``'s ops (``OP_CALLS`` rows ``<module>.<name>``: ``jax``, ``jax.lax`` ...)."""
    return templates({k: v for k, v in OP_CALLS.items() if k.rpartition(".")[0] == module})


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


def _keras_header(backend: str) -> str:
    """Keras code sets and checks the backend it was planned for (keras.ops differ by backend)."""
    return (f'import math\nimport os\n\nimport numpy as np\n\nos.environ.setdefault("KERAS_BACKEND", "{backend}")\n'
            f'import keras  # noqa: E402\n\nif keras.backend.backend() != "{backend}":\n    raise RuntimeError('
            f'"planned for KERAS_BACKEND={backend}; keras runs " + keras.backend.backend())')


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
    "keras": _keras_header("tensorflow"),  # generate() writes the planned backend's
    "mlx": "import math\n\nimport mlx.core as mx\nimport numpy as np",
}


def _target(name: str, module: str, api: Api, ops: dict[str, Emit], **kw: Any) -> CodeTarget:
    return CodeTarget(name, _HEADERS[name], module, _helpers(api), adapter_emitters(PyVocab(api)), ops, **kw)


#: every Python code target: its imports, op module, helpers, adapter and op emitters
TARGETS: dict[str, CodeTarget] = {
    "numpy": _target("numpy", "np", Api(), op_calls("numpy")),
    "gatherscatter": _target("gatherscatter", "gs", Api(), {}),
    "jax": _target("jax", "jnp", JaxApi(), op_calls("jax")),
    "lax": _target("lax", "jnp", JaxApi(), op_calls("jax.lax")),
    "torch": _target("torch", "torch", TorchApi(), op_calls("torch")),
    "tensorflow": _target("tensorflow", "tf", TfApi(), op_calls("tensorflow")),
    "paddle": _target("paddle", "paddle", PaddleApi(), op_calls("paddle")),
    "keras": _target("keras", "keras.ops", KerasApi(), op_calls("keras"), versioned=_keras_header),
    "mlx": _target("mlx", "mx", MlxApi(), op_calls("mlx")),
    "mxnet": _target("mxnet", "mx.nd", Api(), op_calls("mxnet"),
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
    if target.versioned is not None and t.version is not None:
        target = replace(target, header=target.versioned(t.version))
    attrs = ", ".join(f"{k}={v!r}" for k, v in t.source.attrs.items())
    doc = f"{t.source.op}({attrs}) in {t.target}, generated by gatherscatter.translate."
    return function_code(target, t.source.inputs, t.steps, t.program.output, doc)
