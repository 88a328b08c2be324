"""What each ONNX runtime does on the inputs where gather/scatter results can differ: one table, as data.

Every entry was measured with the conformance kit (:mod:`~gatherscatter.onnxtools.conformance`)
on this project's machine, 2026-11-25: onnxruntime 1.32.0 (CPU execution provider),
OpenVINO 2026.4.1 (CPU plugin, ONNX frontend, ``INFERENCE_PRECISION_HINT=f32``), the
stock ``onnx.reference`` evaluator of onnx 1.23.2. ``cases`` names the kit cases that
show it (regular expressions searched in the case names, ``Op_version_case``); the test
``tests/onnxtools/test_behaviour.py`` re-runs them on onnxruntime (and on OpenVINO with
``-m openvino``) and checks that each runtime still does what its entry says.

``differs``: the runtime's result differs from the ONNX spec's (what gatherscatter
computes, or a refusal where the spec makes it an error), so a model depending on
it changes result on this runtime. ``families``: the op families the entry is about
(None: every gather/scatter op). ``label``: for conditions ONNX leaves open (the
kit's implementation-defined cases), which allowed outcome the runtime gives; it
differs from gatherscatter's choice when ``differs`` is set.

The audit (:mod:`~gatherscatter.onnxtools.audit`) reads this table; the conditions
are the keys of :data:`CONDITIONS`.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BEHAVIOUR", "CONDITIONS", "RUNTIME_LABELS", "Behaviour", "behaviour"]

CONDITIONS = {
    "negative": "an index in [-s, -1] (ONNX: counts from the end)",
    "out_of_range": "an index outside [-s, s-1] (ONNX: an error)",
    "int64_extreme_index": "an index near the int64 limits (beyond the int32 range)",
    "duplicates": "several updates target one element with reduction='none' (ONNX: unspecified order)",
    "duplicates_threads": "duplicate targets under reduction='add'/'mul' with more than one intra-op thread",
    "nan_minmax": "NaN in data or updates under reduction='max'/'min'",
    "bool_reduction": "a reduction on bool data (the type constraint admits it; the arithmetic is not defined)",
    "minmax_opset16": "reduction='max'/'min' in a model of opset 16-17 (added in opset 18)",
    "unknown_reduction": "a reduction string ONNX does not define",
    "index_dtype": "an index dtype outside the op's type constraint (int32 for GatherND/ScatterND; int8, int16, "
    "unsigned)",
    "batch_dims_opset11": "GatherND batch_dims in an opset-11 model (added in opset 12)",
    "wide_data": "int64 or float64 data (values beyond int32 / float32)",
    "empty": "an empty indices or data tensor",
    "narrow_indices": "GatherElements indices smaller than data on a non-axis dimension",
    "long_axis": "GatherElements along an axis longer than 64",
    "rank0_data": "0-d data (ONNX: rank >= 1)",
    "write_index": "a TensorScatter write index that is negative, or in linear mode past max_sequence_length - "
    "sequence_length",
    "op_missing": "an op the runtime does not implement",
    "not_analysed": "the audit could not check this node (its finding says why)",
}

RUNTIME_LABELS = {
    "onnxruntime": "onnxruntime 1.32.0 CPU",
    "openvino": "OpenVINO 2026.4.1 CPU (ONNX frontend)",
    "reference": "onnx.reference 1.23.2",
    "gatherscatter": "gatherscatter (the ONNX spec; unspecified cases: documented choice)",
}


@dataclass(frozen=True)
class Behaviour:
    """What ``runtime`` does under ``condition`` (for the op ``families``; None: all)."""

    runtime: str
    condition: str
    does: str
    differs: bool
    cases: tuple[str, ...] = ()
    families: tuple[str, ...] | None = None
    source: str = "measured with the conformance kit, 2026-11-25"
    flaky: bool = False
    label: str | None = None


_G, _GE, _GND, _SE, _SND = "gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd"
_SA = "scatter_axis"  # TensorScatter
_SCATTERS = (_SE, _SND)

BEHAVIOUR: tuple[Behaviour, ...] = (
    # ------------------------------------------------------------------ onnxruntime
    Behaviour("onnxruntime", "negative", "wraps once (i + s)", False, (r"\d_negative$",)),
    Behaviour("onnxruntime", "out_of_range", "raises ('indices element out of data bounds')", False,
              (r"_out_of_range(_negative)?$",)),
    Behaviour("onnxruntime", "int64_extreme_index", "circular: exact (the write index is reduced modulo "
              "max_sequence_length first); linear: raises", False, ("TensorScatter_24_(circular_)?int64_max",), (_SA,)),
    Behaviour("onnxruntime", "write_index", "raises for a negative write index (both modes) and, in linear mode, for "
              "write_indices[b] + sequence_length > max_sequence_length even when nothing is written", False,
              ("TensorScatter_24_negative_write_index", "TensorScatter_24_(empty_update_)?out_of_range$"), (_SA,),
              label="raise"),
    Behaviour("onnxruntime", "op_missing", "implements TensorScatter (CPU: no kernel for string and float8 data)",
              False, ("TensorScatter_24_basic$",), (_SA,)),
    Behaviour("onnxruntime", "int64_extreme_index", "raises", False, ("_int64_max", "_int64_min", "_int64_extreme")),
    Behaviour("onnxruntime", "duplicates", "last update in row-major order wins", False, ("_duplicates_none",),
              _SCATTERS, label="last-wins"),
    Behaviour("onnxruntime", "duplicates_threads",
              "ScatterND loses updates (a data race): wrong sums in some rows, varying from run to run; correct with "
              "intra_op_num_threads=1", True, ("ScatterND_18_large_add",), (_SND,),
              "conformance kit: 4-5 of 5 runs wrong at the default thread count; microsoft/onnxruntime#18048, #23396",
              flaky=True),
    Behaviour("onnxruntime", "duplicates_threads", "ScatterElements is correct with 2 threads", False,
              ("ScatterElements_18_large_add",), (_SE,)),
    Behaviour("onnxruntime", "nan_minmax", "a NaN update wins; a NaN already in data is replaced by the update",
              True, ("_nan_max", "_nan_min"), _SCATTERS, label="drop-nan-data"),
    Behaviour("onnxruntime", "bool_reduction", "add = OR and mul = AND; max/min refused ('bool data type is not "
              "supported')", True, ("_bool_max", "_bool_min"), _SCATTERS, label="raise"),
    Behaviour("onnxruntime", "minmax_opset16", "accepted and computed as at opset 18", True,
              ("_16_duplicates_max", "_16_duplicates_min"), _SCATTERS),
    Behaviour("onnxruntime", "unknown_reduction", "runs silently as 'none'", True, ("_unknown_reduction",),
              _SCATTERS),
    Behaviour("onnxruntime", "index_dtype", "refuses the model (type constraint)", False,
              ("_indices_int16", "_indices_uint8", "_indices_uint64", "GatherND_13_indices_int32")),
    Behaviour("onnxruntime", "batch_dims_opset11", "refuses the model", False, ("GatherND_11_batch_dims",),
              (_GND,)),
    Behaviour("onnxruntime", "wide_data", "exact", False, ("_int64_data_extremes", "_float64_data_precision")),
    Behaviour("onnxruntime", "empty", "computes the empty result", False, ("_empty_indices", "_empty_data")),
    Behaviour("onnxruntime", "narrow_indices", "computes it", False, ("GatherElements_13_narrow_indices",),
              (_GE,)),
    Behaviour("onnxruntime", "long_axis", "computes it", False, ("GatherElements_13_long_axis",), (_GE,)),
    Behaviour("onnxruntime", "rank0_data", "refuses", False, ("_scalar_data",)),
    # ------------------------------------------------------------------ OpenVINO
    Behaviour("openvino", "negative", "wraps once (i + s)", False, (r"\d_negative$",)),
    Behaviour("openvino", "out_of_range", "Gather returns zeros; GatherND reads some other element (an "
              "out-of-range column reads the next row)", True, ("Gather_13_out_of_range", "GatherND_13_out_of_range"),
              (_G, _GND)),
    Behaviour("openvino", "out_of_range", "raises (but with INFERENCE_NUM_THREADS=1 nothing is checked: "
              "uninitialised values or a crash)", False,
              ("GatherElements_13_out_of_range", "ScatterElements_18_out_of_range", "ScatterND_18_out_of_range"),
              (_GE, _SE, _SND)),
    Behaviour("openvino", "int64_extreme_index", "indices are cut to int32 first: int64 max reads the last row, "
              "int64 min reads or writes row 0", True, ("_int64_max", "_int64_min", "_int64_extreme"),
              (_G, _GE, _GND, _SE, _SND)),
    Behaviour("openvino", "duplicates", "last update wins (on these small inputs)", False, ("_duplicates_none",),
              _SCATTERS, label="last-wins"),
    Behaviour("openvino", "duplicates_threads", "correct", False, ("_18_large_add",), _SCATTERS),
    Behaviour("openvino", "nan_minmax", "a NaN already in data stays; a NaN update is dropped", True,
              ("_nan_max", "_nan_min"), _SCATTERS, label="drop-nan-update"),
    Behaviour("openvino", "bool_reduction", "add = OR, mul = AND, max = OR, min = AND", False, ("_bool_",),
              _SCATTERS, label="logical"),
    Behaviour("openvino", "minmax_opset16", "accepted and computed as at opset 18", True,
              ("_16_duplicates_max", "_16_duplicates_min"), _SCATTERS),
    Behaviour("openvino", "unknown_reduction", "refuses the model", False, ("_unknown_reduction",), _SCATTERS),
    Behaviour("openvino", "index_dtype", "accepts int8/int16/unsigned indices, and int32 for GatherND/ScatterND",
              True, ("GatherND_13_indices_int32", "Gather_13_indices_int16", "Gather_13_indices_uint8")),
    Behaviour("openvino", "batch_dims_opset11", "accepts and applies batch_dims", True, ("GatherND_11_batch_dims",),
              (_GND,)),
    Behaviour("openvino", "wide_data", "computes int64 in int32 and float64 in float32 (dtype kept, values "
              "changed)", True, ("_int64_data_extremes", "_float64_data_precision")),
    Behaviour("openvino", "empty", "Gather with empty indices or empty data kills the process", True,
              ("Gather_13_empty_indices", "Gather_13_empty_data"), (_G,)),
    Behaviour("openvino", "narrow_indices", "the ONNX frontend refuses the model", True,
              ("GatherElements_13_narrow_indices",), (_GE,)),
    Behaviour("openvino", "long_axis", "computes it", False, ("GatherElements_13_long_axis",), (_GE,)),
    Behaviour("openvino", "rank0_data", "refuses", False, ("_scalar_data",)),
    Behaviour("openvino", "op_missing", "the ONNX frontend has no TensorScatter: refuses every model with it", True,
              ("TensorScatter_24_(basic|circular_wrap|axis_last)$",), (_SA,)),
    # ------------------------------------------------------------------ onnx.reference
    Behaviour("reference", "negative", "wraps once (i + s)", False, ("Gather_13_negative", "GatherND_13_negative",
                                                                      "ScatterND_18_negative")),
    Behaviour("reference", "int64_extreme_index", "circular: write_indices[b] + j is summed in int64 before the "
              "modulo and wraps around: a write at the wrong position", True, ("TensorScatter_24_circular_int64_max",),
              (_SA,)),
    Behaviour("reference", "write_index", "follows the spec's pseudocode: a negative write index counts from the end "
              "(linear) or is taken floor modulo (circular); nothing is checked when nothing is written", False,
              ("TensorScatter_24_negative_write_index", "TensorScatter_24_empty_update_out_of_range"), (_SA,),
              label="spec-pseudocode"),
    Behaviour("reference", "op_missing", "implements TensorScatter", False, ("TensorScatter_24_basic$",), (_SA,)),
    Behaviour("reference", "out_of_range", "GatherElements wraps the index modulo s, silently", True,
              ("GatherElements_13_out_of_range",), (_GE,)),
    Behaviour("reference", "out_of_range", "raises (a NumPy IndexError)", False,
              ("Gather_13_out_of_range", "GatherND_13_out_of_range", "ScatterElements_18_out_of_range",
               "ScatterND_18_out_of_range"), (_G, _GND, _SE, _SND)),
    Behaviour("reference", "duplicates", "last update in row-major order wins", False,
              ("ScatterElements_18_duplicates_none", "ScatterND_18_duplicates_none"), _SCATTERS, label="last-wins"),
    Behaviour("reference", "nan_minmax", "ScatterElements drops a NaN update (Python's max and min)", True,
              ("_nan_max", "_nan_min"), (_SE,), label="drop-nan-update"),
    Behaviour("reference", "nan_minmax", "ScatterND propagates NaN (np.maximum, np.minimum)", False,
              ("_nan_max", "_nan_min"), (_SND,), label="propagate"),
    Behaviour("reference", "bool_reduction", "add = OR, mul = AND, max = OR, min = AND", False, ("_bool_",),
              _SCATTERS, label="logical"),
    Behaviour("reference", "minmax_opset16", "accepted and computed as at opset 18", True,
              ("_16_duplicates_max", "_16_duplicates_min"), _SCATTERS),
    Behaviour("reference", "unknown_reduction", "runs silently as 'none'", True, ("_unknown_reduction",),
              _SCATTERS),
    Behaviour("reference", "index_dtype", "accepts any integer index dtype", True,
              ("_13_indices_int16", "GatherND_13_indices_int32")),
    Behaviour("reference", "batch_dims_opset11", "accepts and applies batch_dims", True,
              ("GatherND_11_batch_dims",), (_GND,)),
    Behaviour("reference", "narrow_indices", "fails ('all dimensions of index and self should be the same size')",
              True, ("GatherElements_13_narrow_indices",), (_GE,)),
    Behaviour("reference", "long_axis", "fails (np.choose takes at most 64 choices)", True,
              ("GatherElements_13_long_axis",), (_GE,)),
    Behaviour("reference", "rank0_data", "Gather of 0-d data returns a value instead of refusing", True,
              ("Gather_13_scalar_data",), (_G,)),
)


def behaviour(runtime: str, condition: str, family: str) -> Behaviour | None:
    """The table's entry for ``runtime`` under ``condition`` for an op of ``family`` (None: not recorded)."""
    for b in BEHAVIOUR:
        if b.runtime == runtime and b.condition == condition and (b.families is None or family in b.families):
            return b
    return None
