"""Gradients (vector-Jacobian products) for every gather/scatter op.

``out, pullback = gs.vjp(op, *args, **kwargs)`` runs ``op`` (a dialect function
such as ``gs.torch.gather``, a neutral-API function such as ``gs.take``, or its
registered name ``"torch.gather"``) and returns its output and a
:class:`Pullback`. ``pullback(cotangent)`` returns one entry per positional
argument of the call: an array (the input's shape; its dtype when floating)
for each differentiable input named in ``op.info.differentiable``, None for
indices, axes, shapes and every other argument. ``pullback.named(cotangent)``
returns the gradients by parameter name, including inputs passed by keyword.

How it works
------------
Only two rules live here (:mod:`.rules`): the VJP of the gather primitive (a
scatter-add) and of the scatter primitive (a weighted gather, per reduction).
Every dialect inherits them through its lowering. The dialect's adapters
(broadcasting, slicing ``src`` to the index shape, reshape, ``moveaxis``,
``astype``, torch's ``alpha * source``, ...) are learned by probing
``op.lower`` with coded float64 inputs (``1, 2, 3, ...``, ones, zeros, and a
random check): each element of the lowering's data, updates and output is one
user element times a factor, and the map is transposed with a bincount
(:mod:`._probe`). Adapters that are not such a movement/scaling raise
:class:`~gatherscatter.errors.UnsupportedError` rather than return a wrong
gradient.

Dtypes: an op whose output is not real floating (integer, bool, complex,
bfloat16, strings) has no gradient here: :func:`vjp` raises
:class:`~gatherscatter.errors.UnsupportedError`. Differentiable inputs given as
integer arrays of a floating op (a Python list of ints as updates) get a
float64 gradient.

Conventions (``t`` a targeted position, ``y = Y[t]``, ``x = D[t]``)
-----------------------------------------------------------------------

=====================  ==================  ===================  ====================  =========================
case                   PyTorch ops         TensorFlow ops       JAX ops               ONNX, OpenVINO, NumPy,
                       (torch autograd)    (tf.GradientTape)    (jax.vjp)             MXNet, Caffe2, Paddle,
                                                                                      neutral API (maths)
=====================  ==================  ===================  ====================  =========================
gather duplicates      sum                 sum                  sum                   sum
gather fill (OOB)      n/a (raises)        0 (device='gpu')     0                     0
gather clip (OOB)      n/a                 dropped (xla: the    promise_in_bounds:    to the clamped element
                                           forward clamps)      dropped; clip: to
                                                                the clamped element
scatter drop (OOB)     n/a                 0                    0; promise_in_bounds  0
                                                                with OOB: raises
overwrite duplicates   every duplicate     every duplicate      only the winner       only the winner (last
                       gets dY[t]          gets dY[t]           (last)                unless duplicates='first')
max/min ties           split evenly; x     split evenly         split evenly          split evenly among x (if
                       counted when x==y                                              include_self) and the
                       even if                                                        tied updates
                       include_self=False
                       (x then gets 0)
mul with zeros         exact (no div by 0) exact                only unique indices   exact product of the
                                                                (else raises; unique: other factors
                                                                our extension)
mean                   dY/(n+1) or dY/n;   n/a                  n/a                   same as torch
                       x: dY/(n+1) or 0
scatter(reduce=...)    raises (torch has   -                    -                     -
                       no derivative)
scatter_reduce         raises unless       -                    -                     -
                       src.shape ==
                       index.shape
=====================  ==================  ===================  ====================  =========================

Integer/bool data: no gradient (UnsupportedError), in every framework column.
"""

from ._vjp import CONVENTIONS, Pullback, convention_of, vjp
from .rules import MATH, Convention, gather_vjp, scatter_vjp

__all__ = ["CONVENTIONS", "MATH", "Convention", "Pullback", "convention_of", "gather_vjp", "scatter_vjp", "vjp"]
