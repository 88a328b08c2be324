"""Deliberately broken ops: each must be reported by the fuzzer as a failure, with a reproducer.

Each wraps a real op (its registry entry, signature and lowering, so the fuzzer
generates the same calls and its loop oracle knows the right answer) and breaks
one rule. Referenced by the fuzzer as ``tests.fuzz.broken:<name>``.
"""

from __future__ import annotations

import ctypes
import dataclasses
import inspect
import os
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import gatherscatter as gs


class Broken:
    """``base`` with its call replaced by ``fn(base, *args, **kwargs)``."""

    def __init__(self, base: Any, name: str, fn: Callable[..., Any]) -> None:
        self.info = dataclasses.replace(base.info, name=name)
        self.lower = base.lower
        self.__signature__ = inspect.signature(base)
        self._base = base
        self._fn = fn

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(self._base, *args, **kwargs)


def _data(kwargs: dict[str, Any]) -> Any:
    return kwargs.get("data")


def _many(kwargs: dict[str, Any]) -> bool:
    """True for calls with more than two indices (some calls stay healthy)."""
    try:
        return np.asarray(kwargs.get("indices")).size > 2
    except Exception:
        return False


def _modifies_input(base: Any, *args: Any, **kwargs: Any) -> Any:
    out = base(*args, **kwargs)
    d = _data(kwargs)
    if isinstance(d, np.ndarray) and d.flags.writeable and d.size and d.dtype.kind in "biuf":
        d.flat[0] = 1 if d.flat[0] == 0 else 0
    return out


def _bare_value_error(base: Any, *args: Any, **kwargs: Any) -> Any:
    if _many(kwargs):
        raise ValueError("broken: a bare ValueError")
    return base(*args, **kwargs)


def _wrong_value(base: Any, *args: Any, **kwargs: Any) -> Any:
    out = base(*args, **kwargs)
    if out.size and out.dtype.kind in "iuf":
        out.flat[-1] = 7 if out.flat[-1] != 7 else 8
    return out


def _view_of_input(base: Any, *args: Any, **kwargs: Any) -> Any:
    out = base(*args, **kwargs)
    d = _data(kwargs)
    if isinstance(d, np.ndarray) and d.size:
        return d.view()
    return out


def _hangs(base: Any, *args: Any, **kwargs: Any) -> Any:
    if _many(kwargs):
        time.sleep(3600)
    return base(*args, **kwargs)


def _aborts(base: Any, *args: Any, **kwargs: Any) -> Any:
    if _many(kwargs):
        os.abort()
    return base(*args, **kwargs)


def _segfaults(base: Any, *args: Any, **kwargs: Any) -> Any:
    if _many(kwargs):
        ctypes.string_at(0)  # reads address 0: SIGSEGV
    return base(*args, **kwargs)


modifies_input = Broken(gs.onnx.Gather, "BrokenModifiesInput", _modifies_input)
bare_value_error = Broken(gs.onnx.Gather, "BrokenValueError", _bare_value_error)
wrong_value = Broken(gs.onnx.Gather, "BrokenWrongValue", _wrong_value)
view_of_input = Broken(gs.onnx.Gather, "BrokenViewOfInput", _view_of_input)
hangs = Broken(gs.onnx.Gather, "BrokenHangs", _hangs)
aborts = Broken(gs.onnx.Gather, "BrokenAborts", _aborts)
segfaults = Broken(gs.onnx.Gather, "BrokenSegfaults", _segfaults)
