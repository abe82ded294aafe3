"""The oracle: run one input the way a user does (`oxide-opt FILE --emit=ptx`, and for .rs also
`oxide.compile` plus an emulator run of its SIMT kernels) inside this process, and classify what happened.

A crash or a hang kills or stalls this process; the parent (tests/fuzz/pool.py) sees that and classifies it.
"""

from __future__ import annotations

import io
import re
import warnings
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import click

from tests.fuzz.outcome import (ACCEPTED, EMULATOR, FAILED, INTERNAL, PTXAS, REJECTED, TRACEBACK, UNCAUGHT,
                                UNLOCATED, Finding, Outcome)
from tests.fuzz.ptxas import assemble, ptxas_path
from tests.fuzz.signature import exception_signature, normalize

EMULATOR_BUDGET_S = 2.0
_ERROR_FILE = re.compile(r"^(.+?):\d+:\d+: error:", re.M)
DETAIL_CHARS = 2000


@dataclass
class CliRun:
    """What the command line would have shown: exit status, stdout, stderr, and the exception (if any) that
    the console-script wrapper turned into an internal error."""

    status: int
    stdout: str
    stderr: str
    exception: BaseException | None


def run_oxide_opt(args: list[str]) -> CliRun:
    """`oxide-opt ARGS` in this process, through the same console-script wrapper as the installed command."""
    from oxide.tools.entry import run_cli
    from oxide.tools.oxide_opt import cli

    out, err, caught = io.StringIO(), io.StringIO(), []

    class Recorded:
        """The command with these arguments; an exception run_cli will report as internal is kept."""

        def main(self, standalone_mode: bool) -> object:
            try:
                return cli.main(args=args, prog_name="oxide-opt", standalone_mode=standalone_mode)
            except (click.ClickException, click.exceptions.Abort):
                raise  # usage errors: bad input, reported by run_cli
            except Exception as exc:  # run_cli reports it as an internal error; keep it for the bucket signature
                caught.append(exc)
                raise

    status = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            run_cli(Recorded())  # type: ignore[arg-type]
        except SystemExit as exc:
            if isinstance(exc.code, str):
                err.write(exc.code + "\n")  # what Python does with sys.exit("message")
            status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    return CliRun(status, out.getvalue(), err.getvalue(), caught[0] if caught else None)


def ptxas_findings(ptx: str, outcome: Outcome, where: str) -> None:
    """Add a finding if ptxas rejects `ptx` (a note instead if there is no ptxas)."""
    if ptxas_path() is None:
        if "ptxas not found: PTX not assembled" not in outcome.notes:
            outcome.notes.append("ptxas not found: PTX not assembled")
        return
    error = assemble(ptx)
    if error is not None:
        outcome.findings.append(Finding(PTXAS, normalize(error), f"{where}: {error}"))


def _located(stderr: str, path: Path) -> bool:
    """Whether every error points into the input, or to a location the input itself wrote: MLIR reports an
    op's errors at its `loc("file":line:col)`, which is how IR emitted from a .rs file keeps pointing into
    the .rs file."""
    if path.name in stderr:
        return True
    files = _ERROR_FILE.findall(stderr)
    if not files:
        return False
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return all(f'"{name}"' in text for name in files)


def classify_cli(run: CliRun, path: Path, outcome: Outcome) -> str | None:
    """Add the findings of one oxide-opt run; return its PTX when it accepted the input."""
    stderr = run.stderr
    if run.exception is not None:
        outcome.findings.append(Finding(INTERNAL, exception_signature(run.exception), stderr[-DETAIL_CHARS:]))
    elif "internal error" in stderr:
        line = next(x for x in stderr.splitlines() if "internal error" in x)
        outcome.findings.append(Finding(INTERNAL, f"exit {run.status}: " + normalize(line.replace(str(path), "FILE")),
                                        stderr[-DETAIL_CHARS:]))
    elif "Traceback (most recent call last)" in stderr:
        last = [x for x in stderr.splitlines() if x.strip()][-1]
        outcome.findings.append(Finding(TRACEBACK, normalize(last), stderr[-DETAIL_CHARS:]))
    elif run.status == 0:
        return run.stdout
    elif run.status == 1:
        if "error" not in stderr or not _located(stderr, path):
            outcome.findings.append(Finding(UNLOCATED, normalize(stderr.replace(str(path), "FILE") or "no message"),
                                            stderr[-DETAIL_CHARS:]))
    else:
        outcome.findings.append(Finding(INTERNAL, f"exit status {run.status}", stderr[-DETAIL_CHARS:]))
    return None


def _api(text: str, path: Path, cli_ptx: str | None, outcome: Outcome, emulator_budget_s: float) -> None:
    """`oxide.compile` on a .rs input; on success, ptxas on PTX the CLI did not already check, and the emulator."""
    import oxide
    from oxide.diagnostics import OxideError

    from tests.fuzz.emulate import emulate

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compiled = oxide.compile(text, str(path))
    except OxideError:
        return
    except Exception as exc:  # noqa: BLE001 - anything but OxideError escapes to the user's program
        outcome.findings.append(Finding(UNCAUGHT, "oxide.compile: " + exception_signature(exc), repr(exc)[:DETAIL_CHARS]))
        return
    for ptx in compiled.ptx.values():
        if ptx != cli_ptx:
            ptxas_findings(ptx, outcome, "oxide.compile")
    if compiled.emulator is None or not compiled.kernels:
        return
    try:
        artifact = compiled.artifact(text)
    except Exception as exc:  # noqa: BLE001
        outcome.findings.append(Finding(UNCAUGHT, "artifact: " + exception_signature(exc), repr(exc)[:DETAIL_CHARS]))
        return
    error, slow = emulate(artifact, emulator_budget_s)
    if error is not None:
        outcome.findings.append(Finding(EMULATOR, exception_signature(error), repr(error)[:DETAIL_CHARS]))
    if slow:
        outcome.notes.append("slow: the emulator run passed its budget")


def warm_up() -> None:
    """Import the compiler and build one context, so a worker's first input is timed like every other."""
    import oxide  # noqa: F401
    from oxide.dialects.context import make_context
    from oxide.tools import oxide_opt  # noqa: F401

    make_context()


def examine(path: Path, emulator_budget_s: float = EMULATOR_BUDGET_S) -> Outcome:
    """Run the input file at `path` every way a user would and classify the result."""
    outcome = Outcome(REJECTED)
    run = run_oxide_opt([str(path), "--emit=ptx"])
    ptx = classify_cli(run, path, outcome)
    if ptx is not None:
        outcome.status = ACCEPTED
        ptxas_findings(ptx, outcome, "oxide-opt")
    if path.suffix == ".rs":
        _api(path.read_text(encoding="utf-8"), path, ptx, outcome, emulator_budget_s)
    if outcome.findings:
        outcome.status = FAILED
    return outcome
