"""Traps, assertions and printf on lane vectors. A trap or a failed assertion raises at once, naming the
first thread that hit it; printf prints one line per executing thread, in thread order."""

from __future__ import annotations

import re
import sys
from functools import cache
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import (
    KernelAssertion,
    KernelTrap,
    UnsupportedOperation,
)
from oxide.runtime.emulator.threads import Threads


def trap(c: Threads, mask: Any, loc: int) -> None:
    if mask.any():
        c.fail(KernelTrap, "trap (a Rust panic: the launch fails on the GPU)", mask, loc)


def assert_(c: Threads, mask: Any, cond: Any, message: str, loc: int) -> None:
    failed = mask & ~c.broadcast(cond)
    if failed.any():
        c.fail(KernelAssertion, f"assertion failed: {message}", failed, loc)


_SPEC = re.compile(r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<prec>\d+))?(?P<length>hh|h|ll|l|z|j|t|L)?"
                   r"(?P<conv>[diouxXeEfFgGcsp%])")


@cache
def _python_format(fmt: str) -> tuple[str, tuple[str, ...]]:
    """The Python %-format of a C printf format, and each argument's conversion letter."""
    conversions: list[str] = []

    def convert(match: re.Match[str]) -> str:
        conv = match["conv"]
        if conv == "%":
            return "%%"
        if conv == "s":
            raise UnsupportedOperation("printf %s (strings are not kernel values)")
        conversions.append(conv)
        prec = f".{match['prec']}" if match["prec"] is not None else ""
        python_conv = {"i": "d", "u": "d", "p": "x"}.get(conv, conv)
        prefix = "0x" if conv == "p" else ""
        return f"{prefix}%{match['flags']}{match['width']}{prec}{python_conv}"

    return _SPEC.sub(convert, fmt), tuple(conversions)


def _python_value(conv: str, value: Any) -> Any:
    if conv in "uxXop" and isinstance(value, np.signedinteger):
        return int(value.view(np.dtype(f"u{value.dtype.itemsize}")))
    if conv == "c":
        return chr(int(value) & 0xFF)
    if conv in "eEfFgG":
        return float(value)
    return int(value)


def block_printf(fmt: str, *args: Any) -> None:
    """`tile.print`: one formatted line for the tile block (its scalars are uniform), written to sys.stdout
    as the block's thread 0 prints it on the GPU."""
    python_fmt, conversions = _python_format(fmt)
    sys.stdout.write(python_fmt % tuple(_python_value(conv, a) for conv, a in zip(conversions, args)))


def printf(c: Threads, mask: Any, fmt: str, loc: int, *args: Any) -> np.int32:
    """One formatted line per executing thread, in lane order, written to sys.stdout; vprintf's return
    value, the argument count."""
    python_fmt, conversions = _python_format(fmt)
    columns = [c.broadcast(a) for a in args]
    out = []
    for lane in np.flatnonzero(mask):
        values = tuple(_python_value(conv, col[lane]) for conv, col in zip(conversions, columns))
        out.append(python_fmt % values)
    sys.stdout.write("".join(out))
    return np.int32(len(args))
