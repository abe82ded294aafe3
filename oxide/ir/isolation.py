"""Run an upstream MLIR step where an abort cannot take the user's process with it.

The pinned MLIR wheel is built with LLVM assertions, so IR that upstream cannot handle ends in SIGABRT
(or SIGSEGV) inside C++, which Python cannot catch. oxide verifies and pre-checks what it hands upstream,
but for what slips through, `contained(step, fn)` first runs `fn` in a forked child whose stderr is
captured: if the child dies by a signal, the parent raises `MLIRAborted` (an internal error, exit 2) with
the assertion text; if it survives, the parent runs `fn` itself, so results, diagnostics, warnings and
in-place changes to the IR are exactly those of an unisolated run. The probe doubles the step's cost
(tens of milliseconds for a kernel); forking costs a few milliseconds.

Fork safety: the child must not wait on thread-pool threads, which do not exist after fork, so oxide's
contexts run single-threaded (oxide.dialects.context.make_context) and `contained` turns threading off on the
context it is given. Where os.fork is missing, or OXIDE_NO_ISOLATION=1 (for debugging with a debugger or
a core dump), `fn` simply runs in the process.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
from typing import Any, Callable, TypeVar

T = TypeVar("T")

# How much of the child's stderr an error quotes: the assertion is near the end, after any IR dump.
_QUOTED_CHARS = 2000


class MLIRAborted(Exception):
    """Upstream MLIR killed the child that ran a step: a bug in oxide (it handed upstream IR it cannot take)."""

    def __init__(self, step: str, how: str, stderr: str):
        self.step, self.how, self.stderr = step, how, stderr
        detail = _assertion(stderr) or how
        super().__init__(f"MLIR aborted while {step} ({how}): {detail}")


def _assertion(stderr: str) -> str:
    """The line of the child's stderr that says what failed (an assertion or LLVM ERROR), else its tail."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    for line in lines:
        if "Assertion" in line or line.startswith("LLVM ERROR") or "UNREACHABLE" in line or "what():" in line:
            return line
    return " / ".join(lines)[-_QUOTED_CHARS:]


def isolation_enabled() -> bool:
    """Whether steps run in a child first (os.fork exists and OXIDE_NO_ISOLATION is not set)."""
    return hasattr(os, "fork") and os.environ.get("OXIDE_NO_ISOLATION", "") in ("", "0")


def contained(step: str, fn: Callable[[], T], context: Any = None) -> T:
    """`fn()`, after a forked probe of it survived; MLIRAborted if the probe died by a signal.

    `step` names the work for the message ("parsing k.mlir"); `context` is the mlir.ir.Context `fn` uses.
    """
    if not isolation_enabled():
        return fn()
    if context is not None:
        context.enable_multithreading(False)
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as captured:
        pid = os.fork()
        if pid == 0:  # the child: run the step with its output captured, exit without Python's cleanup
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(captured.fileno(), 2)
                fn()
            except BaseException:  # noqa: B036  (the parent's own run reports it)
                pass
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        if not os.WIFSIGNALED(status):
            return fn()
        captured.seek(0)
        stderr = captured.read().decode("utf-8", "replace")
    raise MLIRAborted(step, _signal_name(os.WTERMSIG(status)), stderr)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
