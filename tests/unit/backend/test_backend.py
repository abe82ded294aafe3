"""Target selection, libdevice discovery and PTX emission."""

import shutil
import subprocess
from pathlib import Path

import pytest

from oxide.backend import compile_to_ptx
from oxide.backend import libdevice
from oxide.diagnostics import OxideError
from oxide.ir.compat import probe
from oxide.ir.parse import parse_source
from oxide.target import Target

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
EXP = Path(__file__).resolve().parents[2] / "lit" / "backend" / "Inputs" / "exp.mlir"


def test_target_defaults_and_validation():
    assert Target().chip == "sm_90" and Target().features == "+ptx80"
    assert Target("sm_80").features == "+ptx70"
    assert Target("sm_90a").sm == 90
    for bad in (dict(chip="sm_42"), dict(chip="gfx90a"), dict(opt_level=4), dict(features="ptx80")):
        with pytest.raises(OxideError):
            Target(**bad)


def test_compat_probe_reports_what_oxide_needs():
    caps = probe()
    assert caps.mlir_version.startswith("22.")
    assert caps.python_passes and caps.irdl and caps.nvptx_backend
    assert caps.llvm_tool("llvm-dis") is not None


def test_vecadd_compiles_to_ptx_with_pointer_params(ctx):
    parsed = parse_source((EXAMPLES / "vecadd.mlir").read_text(), "vecadd.mlir", ctx)
    ptx = compile_to_ptx(parsed.module, Target())
    assert list(ptx) == ["kernels"]
    assert ".visible .entry vecadd(" in ptx["kernels"]
    assert ptx["kernels"].count(".param .u64 .ptr .global") == 3


def test_missing_libdevice_is_a_clear_error(ctx, monkeypatch):
    monkeypatch.setattr("oxide.backend.passes.find_libdevice", lambda: None)
    monkeypatch.setattr("oxide.backend.passes.libdevice_candidates", lambda: [])
    parsed = parse_source(EXP.read_text(), "exp.mlir", ctx)
    with pytest.raises(OxideError, match=r"calls libdevice \(__nv_expf, __nv_sinf\) but libdevice.10.bc was not found"):
        compile_to_ptx(parsed.module)


def test_libdevice_found_through_cuda_home(tmp_path, monkeypatch):
    bc = tmp_path / "nvvm" / "libdevice" / "libdevice.10.bc"
    bc.parent.mkdir(parents=True)
    bc.write_bytes(b"BC")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    assert libdevice.find_libdevice() == bc


def test_kernels_without_math_do_not_need_libdevice(ctx):
    parsed = parse_source((EXAMPLES / "vecadd.mlir").read_text(), "vecadd.mlir", ctx)
    from oxide.backend.passes import LOWER_TO_LLVM
    from oxide.passes.pipeline import build_pass_manager

    build_pass_manager([LOWER_TO_LLVM], ctx).run(parsed.module.operation)
    assert libdevice.libdevice_functions(parsed.module.operation) == []


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_ptxas_assembles_every_example(ctx, tmp_path):
    for source in [*EXAMPLES.glob("*.mlir"), EXP]:
        parsed = parse_source(source.read_text(), source.name, ctx)
        for name, ptx in compile_to_ptx(parsed.module).items():
            path = tmp_path / f"{source.stem}.{name}.ptx"
            path.write_text(ptx)
            result = subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(path.with_suffix(".cubin"))],
                                    capture_output=True, text=True)
            assert result.returncode == 0, result.stderr
