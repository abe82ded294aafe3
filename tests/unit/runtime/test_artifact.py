"""Artifacts on disk, PTX target selection, the cache, generic kernels, and the runtime's import isolation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import oxide
from oxide.runtime import ArtifactError, KernelArgumentError, LaunchConfig1D
from oxide.runtime.artifact import Artifact
from oxide.runtime.kernel import Kernel, KernelGroup
from oxide.runtime.signature import KernelSpec, param_spec
from tests.unit.runtime.conftest import EXAMPLES, ROOT, FakeGpuArray, RecordingExecutor


def test_artifact_holds_signature_ptx_and_metadata(artifact_dir):
    doc = json.loads((artifact_dir / "saxpy" / "saxpy.oxide.json").read_text())
    assert doc["format"] == 1 and doc["targets"] == {"sm_90": "saxpy.sm_90.ptx"}
    assert doc["compiler"].startswith(oxide.__version__ + "+") and len(doc["source_hash"]) == 64
    (kernel,) = doc["kernels"]
    assert kernel["contract"] == {"domain": 1}
    assert [(p["name"], p["kind"], p["elem"], p["abi"]) for p in kernel["params"]] == [
        ("a", "scalar", "f32", ["f32"]), ("x", "slice", "f32", ["u64", "u64"]), ("y", "slice", "f32", ["u64", "u64"]),
        ("out", "disjoint", "f32", ["u64", "u64"])]
    ptx = (artifact_dir / "saxpy" / "saxpy.sm_90.ptx").read_text()
    assert ".visible .entry saxpy(" in ptx and ptx.count(".param") >= 7


def test_signature_round_trips_through_json(artifact_dir):
    artifact = Artifact.load(artifact_dir / "stencil")
    (spec,) = artifact.kernels
    assert KernelSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec
    assert spec.params[3].space == "runtime_2d" and spec.params[3].abi == ["u64", "u64", "u32"]


@pytest.mark.parametrize("rust, mlir, kind, elem, mutable", [
    ("&[f32]", ["!simt.slice<f32>"], "slice", "f32", False),
    ("&mut [i64]", ["!simt.slice_mut<i64>"], "slice_mut", "i64", True),
    ("&[DeviceAtomicU32]", ["!simt.slice<i32>"], "slice", "u32", True),
    ("DisjointSlice<f64, Index2D<16>>", ['!simt.disjoint<f64, "2d:16">'], "disjoint", "f64", True),
    ("*const u8", ["!simt.ptr<i8, 1>"], "ptr", "u8", False),
    ("usize", ["i64"], "scalar", "usize", False),
    ("Uniform<u32>", ["i32"], "scalar", "u32", False),
    ("Pair", ["f32", "i32"], "struct", "", False),
])
def test_parameter_kinds(rust, mlir, kind, elem, mutable):
    spec = param_spec("p", rust, mlir)
    assert (spec.kind, spec.elem, spec.mutable) == (kind, elem, mutable)


def test_ptx_target_selection():
    artifact = Artifact("k", [], {"sm_80": "a", "sm_90": "b", "sm_90a": "c"})
    assert artifact.ptx_for(9, 0) == ("sm_90", "b")
    assert artifact.ptx_for(10, 0) == ("sm_90", "b")   # PTX is JIT-compiled forward
    assert artifact.ptx_for(8, 6) == ("sm_80", "a")
    assert Artifact("k", [], {"sm_90a": "c"}).ptx_for(9, 0) == ("sm_90a", "c")
    with pytest.raises(ArtifactError, match=r"none of which runs on a compute capability 7.5 GPU; rebuild with "
                                            r"`oxide build --arch sm_75`"):
        artifact.ptx_for(7, 5)


def test_broken_artifacts_are_reported(tmp_path, artifact_dir):
    with pytest.raises(ArtifactError, match="cannot read kernel artifact"):
        Artifact.load(tmp_path / "missing.oxide.json")
    doc = json.loads((artifact_dir / "saxpy" / "saxpy.oxide.json").read_text())
    (tmp_path / "old.oxide.json").write_text(json.dumps({**doc, "format": 0}))
    with pytest.raises(ArtifactError, match="artifact format 0, this runtime reads format 1; rebuild it"):
        Artifact.load(tmp_path / "old.oxide.json")
    (tmp_path / "x.oxide.json").write_text(json.dumps(doc))  # its PTX file is not beside it
    with pytest.raises(ArtifactError, match="incomplete kernel artifact"):
        Artifact.load(tmp_path / "x.oxide.json")


def test_cache_skips_the_second_compilation(tmp_path, monkeypatch):
    import oxide.api as api

    monkeypatch.setenv("OXIDE_CACHE_DIR", str(tmp_path / "cache"))
    source = tmp_path / "vecadd.rs"
    source.write_text((EXAMPLES / "vecadd.rs").read_text())
    calls = []
    real = api.compile
    monkeypatch.setattr(api, "compile", lambda *a, **k: calls.append(a) or real(*a, **k))
    first = api.build(source, chips=["sm_90"])
    second = api.build(source, chips=["sm_90"])
    assert first == second and len(calls) == 1 and first.parent.parent == tmp_path / "cache"
    api.build(source, chips=["sm_80"])                      # another target: another entry
    api.build(source, chips=["sm_90"], opt_level=2)         # other options: another entry
    source.write_text(source.read_text() + "\n// edited\n")  # other source: another entry
    api.build(source, chips=["sm_90"])
    assert len(calls) == 4 and len(list((tmp_path / "cache").iterdir())) == 4


def test_generic_kernels_pick_the_instance_from_argument_types(artifact_dir):
    artifact = Artifact.load(artifact_dir / "scale_generic")
    ex = RecordingExecutor(gpu=False)
    group = KernelGroup("scale", [Kernel(spec, ex) for spec in artifact.kernels])
    x64 = np.ones(4, np.float64)
    group.unchecked[1, 32](x64, 2.0, np.zeros(4, np.float64))
    group.unchecked[1, 32](x64.astype(np.float32), 2.0, np.zeros(4, np.float32))
    assert [entry for entry, _, _ in ex.launches] == ["scale_f64", "scale_f32"]
    with pytest.raises(KernelArgumentError, match=r"no instance of generic kernel `scale` fits these arguments:\n"
                                                  r"  scale_f32: `x: &\[f32\]` does not take an array of int32"):
        group.unchecked(np.ones(4, np.int32), 2, np.zeros(4, np.int32), config=LaunchConfig1D(1, 32))


def test_runtime_imports_nothing_of_the_compiler(artifact_dir):
    """oxide.runtime must work where the MLIR wheels and the frontend are absent."""
    script = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "mlir" or name.startswith(("mlir.", "oxide.frontends", "oxide.backend", "oxide.ir",
                                                      "oxide.passes", "oxide.dialects", "tree_sitter")):
                    raise ImportError("blocked: " + name)
        sys.meta_path.insert(0, Block())
        import numpy as np
        import oxide.runtime as rt
        from oxide.runtime.artifact import Artifact
        from oxide.runtime.kernel import Kernel
        from oxide.runtime.contract import DeviceLimits
        from oxide.runtime.gpu import GpuExecutor
        from oxide.runtime.emulated import EmulatedExecutor
        art = Artifact.load({str(artifact_dir / "saxpy")!r})
        print(art.kernels[0].entry, rt.gpu_status()[0] in (True, False))
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["saxpy", "True"]


def test_type_arguments_are_read_from_the_arguments():
    from oxide.generics import generic_kernels, infer

    source = (EXAMPLES / "scale_generic.rs").read_text()
    (scale,) = generic_kernels(source, "scale_generic.rs").values()
    assert scale.slots == {"T": [(0, "elem"), (1, "scalar"), (2, "elem")]}
    assert infer(scale, [np.ones(2, np.float32), 2.0, np.ones(2, np.float32)]) == ["f32"]
    assert infer(scale, [FakeGpuArray(0x10, 2, np.uint16), 2, FakeGpuArray(0x20, 2, np.uint16)]) == ["u16"]
    assert infer(scale, [[1.0], np.float64(2), None]) == ["f64"]   # a numpy scalar is certain
    assert infer(scale, [[1.0], 2.0, None]) == ["f64"]             # a Python float: Rust's default, f64
    with pytest.raises(KernelArgumentError, match="cannot read its type parameter `T`"):
        infer(scale, [[1.0], "x", None])
    (sgemm,) = generic_kernels((EXAMPLES / "sgemm_naive.rs").read_text(), "sgemm_naive.rs").values()
    with pytest.raises(KernelArgumentError, match=r"const parameter\(s\) N, which cannot be read"):
        infer(sgemm, [np.ones(2, np.float32)] * 4)


def test_a_cached_build_loads_without_the_compiler(tmp_path):
    """A GPU server with only numpy and cuda-python runs programs whose builds are in a carried cache."""
    pytest.importorskip("oxide.runtime.emulator", reason="the emulator is not installed")
    env = dict(os.environ, OXIDE_CACHE_DIR=str(tmp_path / "cache"), OXIDE_TARGET="sm_90")
    warm = subprocess.run([sys.executable, "-c", f"import oxide; oxide.build({str(EXAMPLES / 'saxpy.rs')!r})"],
                          env=env, capture_output=True, text=True, cwd=ROOT)
    assert warm.returncode == 0, warm.stderr
    script = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "mlir" or name.startswith("mlir."):
                    raise ImportError("blocked: " + name)
        sys.meta_path.insert(0, Block())
        import numpy as np, oxide
        module = oxide.load({str(EXAMPLES / 'saxpy.rs')!r}, target="cpu")
        out = np.zeros(4, np.float32)
        module.saxpy[1, 32](2.0, np.ones(4, np.float32), np.ones(4, np.float32), out)
        print(out.tolist(), "mlir" in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[3.0, 3.0, 3.0, 3.0] False"
