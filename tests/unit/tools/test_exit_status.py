"""Exit statuses: 1 for errors in the input, 2 whenever an internal error (a bug in oxide) is among the
reported diagnostics, even beside errors in the input (issue 15: such runs exited 1)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from oxide.diagnostics import Diagnostic, SourceLoc, exit_status
from oxide.tools import oxide_opt

INPUTS = Path(__file__).parents[2] / "lit" / "frontends" / "simt" / "Inputs"
_LOC = SourceLoc("k.rs", 1, 1)


def test_exit_status_of_diagnostics():
    user = Diagnostic("error", "cannot find value `t` in this scope", _LOC)
    internal = Diagnostic("error", "internal error in pass 'x': KeyError: 3", _LOC)
    assert exit_status([]) == 0
    assert exit_status([Diagnostic("warning", "a race", _LOC)]) == 0
    assert exit_status([user]) == 1
    assert exit_status([user, internal]) == 2


def test_a_user_error_with_suppressed_cascade_exits_1():
    result = CliRunner().invoke(oxide_opt.cli, [str(INPUTS / "witness_without_contract.rs"), "--emit=ptx"])
    assert result.exit_code == 1, result.output
    assert "internal error" not in result.output


def test_an_internal_error_beside_a_user_error_exits_2(monkeypatch):
    def chunk_with_both(*args, **kwargs):
        return None, [Diagnostic("error", "cannot find value `t` in this scope", _LOC),
                      Diagnostic("error", "internal error: no lowered form for a value of type i32", _LOC)]

    monkeypatch.setattr(oxide_opt, "process_chunk", chunk_with_both)
    result = CliRunner().invoke(oxide_opt.cli, [str(INPUTS / "witness_without_contract.rs"), "--emit=ptx"])
    assert result.exit_code == 2, result.output


def test_usage_errors_exit_1_not_the_internal_error_status():
    import subprocess
    import sys

    for command in (["oxide.tools.oxide_opt", "--no-such-option"], ["oxide.tools.oxide_cli", "build", "--arch"],
                    ["oxide.tools.oxide_cli", "no-such-command"]):
        run = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True)
        assert run.returncode == 1, (command, run.stderr)
        assert "Error:" in run.stderr and "internal error" not in run.stderr and "Traceback" not in run.stderr


def test_help_exits_0():
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "oxide.tools.oxide_opt", "--help"], capture_output=True, text=True)
    assert run.returncode == 0 and "Usage:" in run.stdout
