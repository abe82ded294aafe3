"""Bucket signatures: what makes two findings "the same bug" (outcome, exception type, innermost oxide frame
or assertion text), with the numbers and names that vary between mutants replaced by N and Q."""

from __future__ import annotations

import re
import traceback
from pathlib import Path

OXIDE_ROOT = Path(__file__).resolve().parents[2] / "oxide"
MAX_TEXT = 120
_COMPREHENSIONS = frozenset({"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>", "<lambda>"})
_QUOTED = re.compile(r"'[^'\n]*'|`[^`\n]*`|\"[^\"\n]*\"")
_NUMBER = re.compile(r"0x[0-9a-fA-F]+|\d+")


def normalize(text: str) -> str:
    """`text` with quoted names as Q and numbers as N, cut to one short line."""
    text = _NUMBER.sub("N", _QUOTED.sub("Q", text.strip().splitlines()[0] if text.strip() else ""))
    return text[:MAX_TEXT]


def oxide_frame(filename: str, line: int | None, function: str) -> str | None:
    """`oxide/x/y.py:L (function)` for a frame inside the oxide package, else None."""
    try:
        rel = Path(filename).resolve().relative_to(OXIDE_ROOT.parent)
    except ValueError:
        return None
    if rel.parts[0] != "oxide" or function in _COMPREHENSIONS:
        return None  # a comprehension's frame says less than the function around it
    return f"{rel.as_posix()}:{line} ({function})"


def exception_signature(exc: BaseException) -> str:
    """`TypeError in oxide/x.py:L (function)`: the exception type and the innermost oxide frame it crossed."""
    frames = [oxide_frame(f.filename, f.lineno, f.name) for f in traceback.extract_tb(exc.__traceback__)]
    inner = [f for f in frames if f]
    return f"{type(exc).__name__} in {inner[-1] if inner else '<outside oxide>'}"


_ASSERTION = re.compile(r"Assertion `(.+?)' failed")
_LLVM_ERROR = re.compile(r"LLVM ERROR: (.+)")
_CXX_WHAT = re.compile(r"what\(\):\s+(.+)")  # a C++ exception (a Python one raised in a callback) ends it
_PY_ERROR = re.compile(r"^(\w+(?:Error|Exception)): (.+)$", re.MULTILINE)
_FATAL = re.compile(r"Fatal Python error: (.+)")
# faulthandler prints the most recent call first: `File "/.../oxide/ir/parse.py", line 36 in parse_source`.
_FAULT_FRAME = re.compile(r'File "([^"]+)", line (\d+) in (\w+)')


def stack_location(stderr: str, with_line: bool = True) -> str | None:
    """The innermost oxide frame of the last Python stack faulthandler wrote to `stderr`."""
    stacks = stderr.split("most recent call first")
    for path, line, function in _FAULT_FRAME.findall(stacks[-1]):
        frame = oxide_frame(path, int(line) if with_line else None, function)
        if frame:
            return frame if with_line else frame.replace(":None", "")
    return None


def crash_signature(stderr: str) -> str:
    """What a dead process said last: the assertion, LLVM error or Python error, and where in oxide it was."""
    what = "no message"
    for pattern in (_ASSERTION, _LLVM_ERROR, _CXX_WHAT, _PY_ERROR, _FATAL):
        found = pattern.findall(stderr)
        if found:
            last = found[-1]
            what = normalize(": ".join(last) if isinstance(last, tuple) else last)
            break
    where = stack_location(stderr)
    return f"{what} under {where}" if where else what
