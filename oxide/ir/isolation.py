"""Run an upstream MLIR step where an abort cannot take the user's process with it.

The pinned MLIR wheel is built with LLVM assertions, so IR that upstream cannot handle ends in SIGABRT
(or SIGSEGV) inside C++, which Python cannot catch. oxide verifies and pre-checks what it hands upstream,
but for what slips through, `contained(step, fn)` first runs `fn` in a forked child whose stderr is
captured: if the child dies by a signal, the parent raises `MLIRAborted` (an internal error, exit 2) with
the assertion text; if it survives, the parent runs `fn` itself, so results, diagnostics, warnings and
in-place changes to the IR are exactly those of an unisolated run. The probe doubles the step's cost
(tens of milliseconds for a kernel); forking costs a few milliseconds.

A step whose only product is its return value (compiling to PTX: hundreds of milliseconds, half of a
kernel's compile time when it ran twice) uses `computed(step, fn)` instead: the child sends its result back
(pickled) and the parent does not run `fn` again. Only a clean run is taken from the child: where `fn`
raised or reported any diagnostic (an error, a warning, a remark), the parent runs it itself, so that what
the caller sees is exactly what an unisolated run reports.

Fork safety: the child must not wait on thread-pool threads, which do not exist after fork, so oxide's
contexts run single-threaded (oxide.dialects.context.make_context) and `contained` turns threading off on the
context it is given. Where os.fork is missing, or OXIDE_NO_ISOLATION=1 (for debugging with a debugger or
a core dump), `fn` simply runs in the process.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import tempfile
from typing import Any, Callable, TypeVar

from oxide.ir.diagnostics import warnings_reported

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
    _in_child(step, fn, context, send_result=False)
    return fn()


def computed(step: str, fn: Callable[[], T], context: Any) -> T:
    """`fn()` computed in a forked child and sent back, where it ran cleanly (no exception, no diagnostic);
    otherwise `fn()` run here after the child survived; MLIRAborted if the child died by a signal.

    `fn`'s result must pickle; changes `fn` makes to objects (the IR) stay in the child, so `fn` must return
    everything the caller needs.
    """
    if not isolation_enabled():
        return fn()
    sent = _in_child(step, fn, context, send_result=True)
    return sent[0] if sent else fn()


def _in_child(step: str, fn: Callable[[], T], context: Any, send_result: bool) -> tuple[T] | None:
    """Run `fn` in a forked child; MLIRAborted if it died by a signal, else (its result,) when it was asked for
    and the run was clean, else None."""
    if context is not None:
        context.enable_multithreading(False)
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as captured, tempfile.TemporaryFile() as result:
        pid = os.fork()
        if pid == 0:  # the child: run the step with its output captured, exit without Python's cleanup
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(captured.fileno(), 2)
                with warnings_reported(context) as reported:
                    value = fn()
                if send_result and not reported:
                    pickle.dump((value,), result)
                    result.flush()
            except BaseException:  # noqa: B036  (the parent's own run reports it)
                pass
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        if not os.WIFSIGNALED(status):
            result.seek(0)
            data = result.read()
            return pickle.loads(data) if data else None
        captured.seek(0)
        stderr = captured.read().decode("utf-8", "replace")
    raise MLIRAborted(step, _signal_name(os.WTERMSIG(status)), stderr)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
