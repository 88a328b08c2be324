"""The core: two primitives (gather, scatter), their data description and policies."""

from .context import NEUTRAL, OpContext
from .gather import gather
from .policy import (
    Accumulate,
    Bounds,
    Duplicates,
    Fill,
    Identity,
    MeanCount,
    MeanRounding,
    Negative,
    Policy,
    Reduction,
    fill,
)
from .scatter import scatter
from .shape import IndexSpec, gather_shape

__all__ = [
    "NEUTRAL",
    "Accumulate",
    "Bounds",
    "Duplicates",
    "Fill",
    "Identity",
    "IndexSpec",
    "MeanCount",
    "MeanRounding",
    "Negative",
    "OpContext",
    "Policy",
    "Reduction",
    "fill",
    "gather",
    "gather_shape",
    "scatter",
]
