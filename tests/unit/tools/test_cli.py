"""The `oxide` command line through click's runner: new, doctor, build, run, inspect, pipeline, sanitize, and
their error exits."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oxide.tools import doctor as doctor_module
from oxide.tools.oxide_cli import cli

ROOT = Path(__file__).resolve().parents[3]

BAD_KERNEL = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn bad(a: &[f32], mut c: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    c[i] = a[i] + undefined;
}
"""


def _emulator_ready() -> bool:
    try:
        from oxide.backend.emulator import emit_program  # noqa: F401
        from oxide.runtime.emulator import launch  # noqa: F401
    except ImportError:
        return False
    return True


def test_new_scaffolds_a_contracted_project(runner):
    result = runner.invoke(cli, ["new", "demo"])
    assert result.exit_code == 0, result.output
    demo = Path("demo")
    assert sorted(str(p.relative_to(demo)) for p in demo.rglob("*") if p.is_file()) == [
        ".gitignore", "README.md", "main.py", "src/vecadd.rs"]
    kernel = (demo / "src" / "vecadd.rs").read_text()
    assert "#[launch_bounds(256)]" in kernel and "#[launch_contract(domain = 1, block = (256, 1, 1))]" in kernel
    host = (demo / "main.py").read_text()
    assert "N = 1024" in host and "PASSED: all {N} elements correct" in host and "FAILED: {errors} errors" in host
    assert "next: cd demo && oxide run" in result.output


def test_new_refuses_an_existing_directory(runner):
    Path("demo").mkdir()
    result = runner.invoke(cli, ["new", "demo"])
    assert result.exit_code == 2 and "demo already exists" in result.output


def test_doctor_reports_every_check(runner):
    result = runner.invoke(cli, ["doctor"])
    lines = result.output.splitlines()
    for what in ("Python", "MLIR Python bindings", "NVPTX target", "tree-sitter-rust", "cuda-python",
                 "NVIDIA driver and GPU", "libdevice", "ptxas (optional)", "compute-sanitizer (optional)"):
        assert any(line[2:].startswith(what + ":") and line[0] in "✓✗⚠" for line in lines), what
    assert result.exit_code == (1 if any(line.startswith("✗") for line in lines) else 0)


def test_doctor_fails_with_a_hint_when_a_required_check_fails(runner, monkeypatch):
    broken = doctor_module.Check(doctor_module.FAIL, "cuda-python", "cannot import cuda.bindings", "pip install x")
    monkeypatch.setattr(doctor_module, "CHECKS", [doctor_module._python, lambda: broken])
    result = runner.invoke(cli, ["doctor"])
    assert result.exit_code == 1
    assert "✗ cuda-python: cannot import cuda.bindings\n    fix: pip install x" in result.output
    assert "1 problem(s) found" in result.output


def test_build_writes_an_artifact(runner):
    runner.invoke(cli, ["new", "demo"])
    result = runner.invoke(cli, ["build", "demo", "--arch", "sm_80", "--arch", "sm_90"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "built demo/build/vecadd.oxide.json"
    files = {p.name for p in Path("demo/build").iterdir()}
    assert {"vecadd.oxide.json", "vecadd.sm_80.ptx", "vecadd.sm_90.ptx"} <= files
    assert ".target sm_80" in Path("demo/build/vecadd.sm_80.ptx").read_text()


def test_build_of_an_mlir_file_still_writes_ptx(runner):
    result = runner.invoke(cli, ["build", str(ROOT / "examples" / "vecadd.mlir"), "-o", "v.ptx"])
    assert result.exit_code == 0, result.output
    assert ".entry" in Path("v.ptx").read_text()


def test_build_errors_are_located_and_exit_1(runner):
    Path("bad.rs").write_text(BAD_KERNEL)
    result = runner.invoke(cli, ["build", "bad.rs"])
    assert result.exit_code == 1
    assert "bad.rs:5:" in result.output and "undefined" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("args, message", [(["build", "nowhere"], "nowhere does not exist"),
                                           (["build", "empty"], "no kernel sources in empty"),
                                           (["run", "empty.rs"], "no host program")])
def test_usage_errors_exit_2(runner, args, message):
    Path("empty").mkdir()
    Path("empty.rs").write_text(BAD_KERNEL)
    result = runner.invoke(cli, args)
    assert result.exit_code == 2 and message in result.output


def test_inspect_prints_the_ptx_of_one_kernel(runner):
    runner.invoke(cli, ["new", "demo"])
    result = runner.invoke(cli, ["inspect", "demo", "--kernel", "vecadd"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(".visible .entry vecadd(") and ".reqntid 256, 1, 1" in result.output
    assert result.output.rstrip().endswith("}")
    assert runner.invoke(cli, ["inspect", "demo", "--kernel", "nope"]).exit_code == 1


def test_pipeline_prints_every_stage(runner):
    runner.invoke(cli, ["new", "demo"])
    result = runner.invoke(cli, ["pipeline", "demo"])
    assert result.exit_code == 0, result.output
    headings = [line for line in result.output.splitlines() if line.startswith("==== ")]
    assert headings == ["==== vecadd.rs: AST summary ====", "==== vecadd.rs: simt IR (the Rust frontend's output) ====",
                        "==== vecadd.rs: gpu/nvvm IR (after convert-simt-to-nvvm) ====",
                        "==== vecadd.rs: LLVM IR (sm_90, libdevice linked) ====", "==== vecadd.rs: PTX (sm_90) ===="]
    assert "kernel vecadd  [launch_bounds = [256], launch_contract = " in result.output
    assert '"simt.get_mut"' in result.output and "nvvm.read.ptx.sreg.tid.x" in result.output
    assert "define ptx_kernel void @vecadd" in result.output and ".visible .entry vecadd(" in result.output


def test_sanitize_says_what_is_missing(runner, monkeypatch):
    runner.invoke(cli, ["new", "demo"])
    monkeypatch.setattr(doctor_module, "_tool", lambda name, *_: doctor_module.Check(doctor_module.WARN, name, "no"))
    result = runner.invoke(cli, ["sanitize", "demo"])
    assert result.exit_code == 1 and "compute-sanitizer was not found" in result.output


def _oxide(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "oxide.tools.oxide_cli", *args], cwd=cwd, capture_output=True,
                          text=True, env=dict(os.environ), timeout=600)


@pytest.mark.skipif(not _emulator_ready(), reason="the emulator is not installed")
def test_new_then_run_prints_passed(tmp_path):
    assert _oxide(["new", "demo"], tmp_path).returncode == 0
    result = _oxide(["run", "--target", "cpu"], tmp_path / "demo")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "PASSED: all 1024 elements correct"
    assert result.stderr.strip() == "oxide: running on the emulator (target cpu)"


@pytest.mark.skipif(not _emulator_ready(), reason="the emulator is not installed")
def test_run_passes_arguments_and_the_exit_status(tmp_path):
    assert _oxide(["new", "demo"], tmp_path).returncode == 0
    host = tmp_path / "demo" / "main.py"
    host.write_text("import sys\nprint('args', sys.argv[1:])\nsys.exit(3)\n")
    result = _oxide(["run", "--target", "cpu", "--", "x", "--flag"], tmp_path / "demo")
    assert result.returncode == 3 and result.stdout.strip() == "args ['x', '--flag']"


def test_build_warns_about_generic_kernels_left_uninstantiated(runner):
    source = ROOT / "examples" / "rust" / "scale_generic.rs"
    result = runner.invoke(cli, ["build", str(source), "-o", "out"])
    assert result.exit_code == 0, result.output
    assert "warning: generic kernel `scale` was not instantiated" in result.output
    result = runner.invoke(cli, ["build", str(source), "-o", "out", "--instantiate", "scale=f32",
                                 "--instantiate", "scale=f64"])
    assert "warning" not in result.output
    assert [k["entry"] for k in json.loads(Path("out/scale_generic.oxide.json").read_text())["kernels"]] == [
        "scale_f32", "scale_f64"]


def test_build_help_names_every_lowering_knob(runner):
    """The `--knob` help lists the knob names by hand (deriving them would import the lowering at start-up);
    this keeps the list equal to GemmKnobs' fields."""
    from dataclasses import fields

    from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs

    option = next(p for p in cli.commands["build"].params if p.name == "knob")
    listed = option.help[option.help.index("(") + 1:option.help.index(")")].split(", ")
    assert listed == [f.name for f in fields(GemmKnobs)]
