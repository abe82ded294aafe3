"""The oracle's classification of one run, the signatures of dead processes, ptxas, and the emulator run."""

from pathlib import Path

import numpy as np
import pytest

from tests.fuzz.oracle import CliRun, classify_cli, examine, ptxas_findings
from tests.fuzz.outcome import INTERNAL, PTXAS, TRACEBACK, UNLOCATED, Outcome
from tests.fuzz.ptxas import assemble, ptxas_path
from tests.fuzz.signature import crash_signature

REPO = Path(__file__).resolve().parents[2]
FILE = Path("/tmp/k.rs")


def classify(run: CliRun) -> tuple[str | None, Outcome]:
    outcome = Outcome("rejected")
    return classify_cli(run, FILE, outcome), outcome


def raised_in_oxide() -> BaseException:
    from oxide.tools.oxide_opt import split_input

    try:
        split_input(None, True)  # type: ignore[arg-type]
    except AttributeError as exc:
        return exc
    raise AssertionError("split_input accepted None")


def test_accepted_run_gives_its_ptx():
    assert classify(CliRun(0, ".version 8.0", "", None)) == (".version 8.0", Outcome("rejected"))


def test_located_rejection_is_no_finding():
    ptx, outcome = classify(CliRun(1, "", f"{FILE}:3:5: error: bad\n", None))
    assert ptx is None and outcome.findings == []


def test_rejection_at_a_location_the_input_wrote_is_no_finding(tmp_path: Path):
    """Seed 103 of the long run: MLIR reports an op's errors at its explicit `loc(...)`, not in the file."""
    mlir = tmp_path / "k.mlir"
    mlir.write_text('func.func @f() {\n"simt.ref_store"() : () -> () loc("simt."("here":1))\n}\n')
    outcome = Outcome("rejected")
    assert classify_cli(CliRun(1, "", "here:1:0: error: op expects exactly 2 operands\n", None), mlir, outcome) is None
    assert outcome.findings == []
    classify_cli(CliRun(1, "", "elsewhere:1:0: error: op expects exactly 2 operands\n", None), mlir, outcome)
    assert [f.kind for f in outcome.findings] == [UNLOCATED]


def test_unlocated_rejection_is_a_finding():
    _, outcome = classify(CliRun(1, "", "error: something\n", None))
    assert [f.kind for f in outcome.findings] == [UNLOCATED]


def test_internal_error_is_bucketed_by_exception_and_innermost_oxide_frame():
    _, outcome = classify(CliRun(2, "", "internal error: AttributeError: x\n", raised_in_oxide()))
    (finding,) = outcome.findings
    assert finding.kind == INTERNAL and finding.signature.startswith("AttributeError in oxide/tools/oxide_opt.py:")
    assert finding.signature.endswith("(split_input)")


def test_internal_error_text_with_exit_1_is_still_a_finding():
    _, outcome = classify(CliRun(1, "", f"{FILE}:1:1: error: internal error: no lowered form for 3\n", None))
    assert [f.kind for f in outcome.findings] == [INTERNAL] and "FILE:N:N" in outcome.findings[0].signature


def test_traceback_on_stderr_is_a_finding():
    _, outcome = classify(CliRun(1, "", "Traceback (most recent call last):\n  ...\nKeyError: 'x'\n", None))
    assert [f.kind for f in outcome.findings] == [TRACEBACK]


def test_crash_signature_names_the_assertion_and_the_oxide_frame():
    stderr = (f"python: Foo.cpp:12: void f(): Assertion `num >= 4' failed.\nFatal Python error: Aborted\n\n"
              f"Current thread 0x1 (most recent call first):\n"
              f'  File "{REPO}/oxide/ir/parse.py", line 36 in parse_source\n'
              f'  File "{REPO}/oxide/tools/oxide_opt.py", line 80 in process_chunk\n')
    assert crash_signature(stderr) == "num >= N under oxide/ir/parse.py:36 (parse_source)"


@pytest.mark.skipif(ptxas_path() is None, reason="ptxas not installed")
def test_ptxas_rejection_is_reported():
    bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus; }\n"
    assert "bogus" in (assemble(bad) or "")
    outcome = Outcome("accepted")
    ptxas_findings(bad, outcome, "oxide-opt")
    assert [f.kind for f in outcome.findings] == [PTXAS]


def test_example_is_accepted_and_runs_on_the_emulator():
    outcome = examine(REPO / "examples/rust/saxpy.rs")
    assert (outcome.status, outcome.findings) == ("accepted", [])
    assert not any(n.startswith("slow") for n in outcome.notes)


def test_generated_arguments_satisfy_a_contracted_kernel():
    import oxide
    from oxide.runtime import LaunchConfig
    from oxide.runtime.module import Module

    from tests.fuzz.emulate import argument, launch_for

    source = (REPO / "examples/rust/saxpy.rs").read_text(encoding="utf-8")
    artifact = oxide.compile(source, "saxpy.rs").artifact(source)
    (spec,) = artifact.kernels
    launch = launch_for(spec)
    args = [argument(p, launch, np.random.default_rng(0)) for p in spec.params]
    Module(artifact, "cpu").saxpy.prepare(LaunchConfig(launch.grid, launch.block, launch.shared, launch.rank))(*args)
    a, x, y, out = args
    np.testing.assert_allclose(out, a * x + y, rtol=1e-5, atol=1e-5)
