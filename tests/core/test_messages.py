"""Index-bound messages are worded in one place, from the op's context (OpContext fields).

Expected texts are typed here from the frameworks' own phrasing (TensorFlow's
half-open ranges, NumPy's IndexError words, Caffe2's DATA bounds), not copied
from the formatter's output.
"""

from __future__ import annotations

import numpy as np
import pytest

from gatherscatter import errors
from gatherscatter.core import IndexSpec, OpContext, Policy, gather, scatter

V = np.array([10, 20, 30])


def _message(fn):
    with pytest.raises(errors.IndexOutOfRangeError) as info:
        fn()
    return info.value


def test_closed_range_by_default():
    e = _message(lambda: gather(V, [0, 5, 7], IndexSpec(), Policy(), OpContext(op="x.take")))
    assert str(e) == "x.take: indices[1] = 5 is out of range for axis 0 of data with size 3; valid range is [-3, 2]"
    assert (e.value, e.position, e.valid) == (5, (1,), (-3, 2))


def test_the_last_bad_index_when_the_framework_reports_the_last():
    ctx = OpContext(op="x.take", report="last")
    e = _message(lambda: gather(V, [0, 5, 7], IndexSpec(), Policy(), ctx))
    assert "indices[2] = 7" in str(e) and e.position == (2,)


def test_half_open_range_with_the_frameworks_phrase():
    ctx = OpContext(op="tf.gather", data="params", range_style="half_open", position_sep=",",
                    bounds_note="CPU rejects it")
    e = _message(lambda: gather(V, [[0, 1], [3, 0]], IndexSpec(), Policy(negative="raise"), ctx))
    assert str(e) == "tf.gather: indices[1,0] = 3 is not in [0, 3) (axis 0 of params has size 3; CPU rejects it)"
    # negatives read the same way in the half-open style
    e = _message(lambda: gather(V, [-1], IndexSpec(), Policy(negative="raise"), ctx))
    assert "indices[0] = -1 is not in [0, 3)" in str(e)


def test_whole_index_tuples():
    ctx = OpContext(op="tf.scatter_nd", range_style="half_open", position_sep=",", tuple_shape="shape")
    data = np.zeros((2, 4))
    e = _message(lambda: scatter(data, [[1, 1], [0, 4]], [1.0, 2.0], IndexSpec(depth=2, vector=True),
                                 Policy(negative="raise"), ctx))
    assert str(e) == "tf.scatter_nd: indices[1] = [0, 4] does not index into shape [2,4] (component 1 = 4 is not in [0, 4))"
    assert (e.value, e.position, e.valid) == (4, (1, 1), (0, 3))


def test_negative_phrase_and_numpy_words():
    ctx = OpContext(op="c2.Gather", data="DATA", indices="INDICES", negative_phrase="out of DATA bounds (axis_dim={size})")
    e = _message(lambda: gather(V, [0, -1], IndexSpec(), Policy(negative="raise"), ctx))
    assert str(e) == "c2.Gather: INDICES[1] = -1 is out of DATA bounds (axis_dim=3); valid range is [0, 2]"
    np_ctx = OpContext(op="np.add.at", range_style="numpy", bounds_word="out of bounds")
    e = np_ctx.index_error(value=5, position=(1,), size=3, axis=0, lo=-3, where="indices entry 0 at position [1]")
    assert str(e) == ("np.add.at: index 5 is out of bounds for axis 0 with size 3 (indices entry 0 at position [1]); "
                      "valid range is [-3, 2]")


def test_unknown_styles_are_refused():
    with pytest.raises(ValueError, match="range_style"):
        OpContext(range_style="open")
    with pytest.raises(ValueError, match="report"):
        OpContext(report="middle")


def test_no_dialect_words_a_bounds_error_itself():
    """Dialects raise IndexOutOfRangeError only through the core's formatter (or for non-bound index errors)."""
    import ast
    from pathlib import Path

    import gatherscatter.dialects as dialects

    allowed = {  # errors about an index expression's form, not about one index's range
        "_npindex.py", "jax/_at.py", "numpy/put.py", "torch/index_put.py",
        # a rule on a write position and a length (write_indices[b] + sequence_length <= max_sequence_length),
        # checked before the positions exist as indices
        "onnx/tensor_scatter.py",
    }
    offenders = []
    root = Path(dialects.__file__).parent
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "IndexOutOfRangeError" and rel not in allowed):
                offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


def test_memo_keeps_results_only_for_exact_plain_arguments():
    from gatherscatter.core.context import memo

    calls: list[object] = []

    @memo
    def version(name, v=None):
        calls.append(v)
        if type(v) is not int and v is not None:
            raise TypeError(f"{name}: v must be an int, got {v!r}")
        return (name, v)

    assert version("x", 13) == ("x", 13) and version("x", 13) == ("x", 13)
    assert calls == [13]  # kept
    with pytest.raises(TypeError):
        version("x", True)  # equal to 1 and hashes alike, yet refused: not served from a kept 1
    version("x", 1)
    with pytest.raises(TypeError):
        version("x", True)
    with pytest.raises(TypeError):
        version("x", 1.0)
    with pytest.raises(TypeError):
        version("x", [1])  # unhashable: called through, the function's own error
    with pytest.raises(TypeError):
        version("x", (1.5,))
    assert sum(v is True for v in calls) == 2  # errors are not kept

    seen: list[object] = []

    @memo
    def pair(t):
        seen.append(t)
        return t

    pair((1, "a")), pair((1, "a")), pair((True, "a"))
    assert seen == [(1, "a"), (True, "a")]  # a tuple of plain values is kept; one holding a bool is not
