"""The cutile-rs yardstick's logic (benchmarks/yardstick/cutile_run.py), on kernels written here: no cutile-rs
checkout is needed. The example files below are ours, named like the examples whose cases they stand in for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
YARD = ROOT / "benchmarks" / "yardstick"
sys.path.insert(0, str(YARD))

import cutile_run  # noqa: E402
from cutile_cases import Tol, compare, entry, spell  # noqa: E402

# The 26 examples of cutile-rs's cutile-examples/examples at the snapshot the cases were written from.
EXAMPLES = """async_add async_and_then_example async_gemm async_mlp async_saxpy autotune batch_matmul cuda_graphs
cuda_graphs_deviceop cudarc_interop dropout flash_attention flash_attention_causal gemm gemm_static hello_world
interop jit_custom_store jit_disk_cache mxfp8 nvfp4 persistent_gemm rms_norm saxpy scale_ptr softmax""".split()

ADD = """#[cutile::module]
mod adder {
    use cutile::core::*;

    #[cutile::entry()]
    fn add<const S: [i32; 1]>(z: &mut Tensor<f32, S>, x: &Tensor<f32, { [-1] }>, y: &Tensor<f32, { [-1] }>) {
        let a = load_tile_like(x, z);
        let b = load_tile_like(y, z);
        z.store(a OP b);
    }
}
"""


def case(name: str):
    return next(c for c in cutile_run.all_cases() if c.example == name)


@pytest.fixture()
def examples(tmp_path: Path) -> Path:
    folder = tmp_path / "examples"
    folder.mkdir()
    return folder


def test_every_example_has_exactly_one_case():
    names = [c.example for c in cutile_run.all_cases()]
    assert sorted(names) == sorted(EXAMPLES)


def test_blackwell_examples_expect_a_located_sm100_refusal_and_others_do_not():
    refusing = {c.example for c in cutile_run.all_cases() if c.refusal is not None}
    assert refusing == {"mxfp8", "nvfp4"}
    assert all(c.refusal == "sm_100" for c in cutile_run.all_cases() if c.refusal)


def test_inputs_are_seeded_and_never_zero():
    for c in cutile_run.all_cases():
        if c.refusal is not None or c.emulator is not None:
            continue  # the large host-size inputs are drawn on the GPU machine only
        first, second = cutile_run.make_inputs(c, "host"), cutile_run.make_inputs(c, "host")
        for key, value in first.items():
            assert np.array_equal(value, second[key]), (c.example, key)
            assert np.all(value != 0), (c.example, key)


def test_entry_and_generic_spelling_follow_oxide_instance_names():
    assert entry("gemm", "f32", 16, 16) == "gemm_f32_16_16"
    assert entry("saxpy", [2, 4], "f64") == "saxpy_2x4_f64"
    assert spell([4, 1]) == "[4, 1]" and spell(16) == "16"


def test_compare_reports_the_first_difference_and_honours_tolerances():
    want = {"z": np.array([1.0, 2.0, 3.0])}
    assert compare({"z": np.array([1.0, 2.0, 3.0])}, want, {}) == []
    (line,) = compare({"z": np.array([1.0, 2.5, 3.0])}, want, {})
    assert "1 of 3" in line and "first [1]" in line
    assert compare({"z": np.array([1.0, 2.0001, 3.0])}, want, {"z": Tol(0, 1e-3)}) == []
    assert compare({"z": np.array([1.0, np.nan, 3.0])}, want, {"z": Tol(0, 1.0)})  # NaN never passes
    assert compare({}, want, {}) == ["z: not produced"]


def test_first_error_keeps_the_located_line_with_the_file_name_only():
    class OxideError(Exception):
        pass

    OxideError.__module__ = "oxide.diagnostics"
    exc = OxideError("/some/where/k.rs:3:7: error: no such thing\n   |\n 3 | x\n")
    assert cutile_run.first_error(exc) == "OxideError: k.rs:3:7: error: no such thing"
    assert cutile_run.is_located("k.rs:3:7: error: needs sm_100")
    assert not cutile_run.is_located("OxideError: needs sm_100")
    assert cutile_run.first_error(KeyError("x")).startswith("internal error: KeyError")


def test_a_correct_kernel_compiles_and_matches_numpy_on_the_emulator(examples):
    (examples / "async_add.rs").write_text(ADD.replace("OP", "+"))
    row = cutile_run.examine(case("async_add"), examples, None)
    assert row["compiled"] == "compiled"
    assert row["emulator"] == "correct"


def test_a_wrong_kernel_fails_its_numpy_check(examples):
    (examples / "async_add.rs").write_text(ADD.replace("OP", "-"))
    row = cutile_run.examine(case("async_add"), examples, None)
    assert row["compiled"] == "compiled"
    assert row["emulator"].startswith("FAILED: z: 32 of 32")


def test_a_refused_source_reports_its_first_located_error(examples):
    (examples / "async_add.rs").write_text(ADD.replace("OP", "+").replace("f32, S", "f99, S"))
    row = cutile_run.examine(case("async_add"), examples, None)
    assert row["compiled"].startswith("OxideError: async_add.rs:")
    assert row["emulator"] == "not run: not compiled"


def test_a_missing_example_is_reported_not_raised(examples):
    row = cutile_run.examine(case("softmax"), examples, None)
    assert row["compiled"].startswith("missing: no softmax.rs")


def test_a_blackwell_example_that_compiles_or_is_refused_otherwise_is_wrong(examples):
    (examples / "mxfp8.rs").write_text(ADD.replace("OP", "+").replace("fn add", "fn linear_tile"))
    row = cutile_run.examine(case("mxfp8"), examples, None)
    assert row["compiled"].startswith("WRONG")  # its generics do not fit this kernel: refused, but not for sm_100
    assert row["emulator"] == "out of scope"


def test_jit_cache_examples_check_the_second_build_comes_from_the_cache(examples):
    (examples / "jit_disk_cache.rs").write_text(ADD.replace("OP", "+"))
    row = cutile_run.examine(case("jit_disk_cache"), examples, None)
    assert row["compiled"] == "compiled" and row["emulator"] == "correct"


def test_build_then_gpu_writes_a_manifest_and_a_report_without_a_gpu(examples, tmp_path):
    (examples / "async_add.rs").write_text(ADD.replace("OP", "+"))
    build, report = tmp_path / "build", tmp_path / "report.md"
    script = str(YARD / "cutile_run.py")
    env_cmd = [sys.executable, script]
    subprocess.run(env_cmd + [str(examples), "--only", "async_add", "--build", str(build), "--out", str(report)],
                   check=True, capture_output=True, cwd=ROOT)
    manifest = json.loads((build / "manifest.json").read_text())
    (row,) = manifest["rows"]
    assert row["artifact"] == "async_add/async_add.oxide.json" and (build / "async_add" / "inputs.npz").is_file()
    done = subprocess.run(env_cmd + ["--gpu", str(build), "--out", str(report)], capture_output=True, text=True,
                          cwd=ROOT, env={"OXIDE_DEVICE": "cpu", "PATH": "", "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    text = report.read_text()
    gpu_cell = text.split("| compiled | correct | ")[1].split(" |")[0]
    assert gpu_cell.startswith(("not run: ", "correct")), gpu_cell  # "correct" where the machine has a GPU
