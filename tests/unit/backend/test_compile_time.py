"""The tile GEMM's compile time (docs/compile-time.md): a bound that fails when it regresses badly, and the
pipeline choices that keep it down."""

from __future__ import annotations

import resource
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from mlir import ir

import oxide
from oxide.backend.passes import MERGE_TILE_INDEXING, tile_to_llvm
from oxide.dialects.context import make_context
from oxide.frontends import compile_source
from oxide.passes import OxidePass, build_pass_manager
from oxide.passes.transforms.verify import VerifyPass
from oxide.target import Target

GEMM = Path(__file__).resolve().parents[3] / "examples" / "tile" / "gemm.rs"
INSTANCE = {"gemm": [["128", "128", "64"]]}  # what tests/fixtures and benchmarks/tile build
# CPU seconds per compile. The 300 ms target is met for sm_80 and for sm_90, the default target (docs/compile-time.md,
# round 6: about 0.26 s on an idle machine); sm_90a compiles three entries of a wgmma GEMM with 128 x 128 tiles:
# the TMA + wgmma kernel for a row-major B, the one for a K-major B, and the mma.sync sibling for tensors TMA
# cannot read, about 0.52 s. The bounds leave room for a loaded machine (a shared two-core machine at a load of
# 10 measured 1.3 times the idle time) and still fail on a regression like compiling twice.
BOUND_SECONDS = {"sm_80": 0.6, "sm_90": 0.6, "sm_90a": 1.3}
# What LLVM (about half of the compile) is fed: the ops of the GEMM lowered to the LLVM dialect. Counted, not
# timed, so that no machine load hides a regression: 3674 (sm_80 and sm_90: the same kernel) and 7740 (sm_90a,
# three entries) now.
LOWERED_OPS = {"sm_80": 3800, "sm_90": 3800, "sm_90a": 8000}


def _cpu_seconds() -> float:
    """CPU time of this process and the children it waited for (the isolation child does the compile)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.mark.parametrize("chip", ["sm_80", "sm_90", "sm_90a"])
def test_the_tile_gemm_compiles_within_the_bound(chip: str) -> None:
    oxide.compile_file(GEMM, chip, INSTANCE)  # first-use costs (imports, caches) are not what is measured
    best = float("inf")
    for _ in range(3):  # the best of three: another process on the machine only ever adds
        start = _cpu_seconds()
        compiled = oxide.compile_file(GEMM, chip, INSTANCE)
        best = min(best, _cpu_seconds() - start)
    assert ".entry gemm_128_128_64" in compiled.ptx[chip]
    bound = BOUND_SECONDS[chip]
    assert best < bound, f"the tile GEMM took {best:.3f} s of CPU to compile for {chip} (bound {bound} s)"


@pytest.mark.parametrize("chip", ["sm_80", "sm_90", "sm_90a"])
def test_the_tile_gemm_reaches_llvm_in_few_ops(chip: str) -> None:
    context = make_context()
    module = compile_source(GEMM.read_text(), str(GEMM), context, INSTANCE).module
    with context:
        build_pass_manager(tile_to_llvm(Target(chip)), context).run(module.operation)
        counts: Counter[str] = Counter()
        module.operation.walk(lambda op: (counts.update([op.name]), ir.WalkResult.ADVANCE)[1])
    total = sum(counts.values())
    assert total <= LOWERED_OPS[chip], f"the {chip} tile GEMM lowers to {total} ops (bound {LOWERED_OPS[chip]})"
    # A wgmma takes the previous one's result struct as it is: only the first of each K step's chain of four (BK
    # 64) packs its accumulator, 64 insertvalues, in each of the two wgmma entries' two chains (1024 before).
    assert counts["llvm.insertvalue"] <= (256 if chip == "sm_90a" else 0)


def test_tile_kernels_are_verified_once_and_their_indexing_merged_before_the_simt_lowering() -> None:
    steps = tile_to_llvm(Target("sm_80"))
    names = [step if isinstance(step, str) else step.name for step in steps]
    assert names.count(VerifyPass.name) == 1
    assert names.index(MERGE_TILE_INDEXING) == names.index("convert-tile-to-simt") + 1


@dataclass(frozen=True)
class _Unchanged(OxidePass):
    name = "test-unchanged"
    says_unchanged: bool = True

    def run(self, module: ir.Operation) -> bool | None:
        return False if self.says_unchanged else None


BAD_ALIGN = '%s = "simt.shared_array"() {align = 12 : i64} : () -> !simt.shared<f32, 256 : i64>'


@pytest.mark.parametrize("says_unchanged", [True, False])
def test_the_verifiers_rerun_only_after_a_pass_that_may_have_changed_the_module(says_unchanged: bool) -> None:
    with make_context():
        module = ir.Module.parse(f"func.func @f() {{\n  {BAD_ALIGN}\n  return\n}}")
        pm = build_pass_manager([_Unchanged(says_unchanged)])
        if says_unchanged:
            pm.run(module.operation)
        else:
            with pytest.raises(ir.MLIRError, match="power of two"):
                pm.run(module.operation)


def _break_the_constant(module: ir.Operation) -> None:
    """Make the module's arith.constant invalid for MLIR's verifier (an i64 value for an i32 result)."""
    constant = module.regions[0].blocks[0].operations[0].regions[0].blocks[0].operations[0]
    constant.attributes["value"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 3)


CONSTANT_FUNCTION = "func.func @f() -> i32 {\n  %a = arith.constant 1 : i32\n  return %a : i32\n}"


@dataclass(frozen=True)
class _BreaksTheConstant(OxidePass):
    name = "test-breaks-the-constant"

    def run(self, module: ir.Operation) -> bool | None:
        _break_the_constant(module)
        return None


@dataclass(frozen=True)
class _LowersAndBreaksTheConstant(_BreaksTheConstant):
    name = "test-lowers-and-breaks-the-constant"
    verify_after = False  # like convert-simt-to-nvvm: no oxide op left for the Python verifiers


@pytest.mark.parametrize("breaking", [_BreaksTheConstant(), _LowersAndBreaksTheConstant()])
def test_mlir_verifies_what_an_oxide_pass_changed(breaking: OxidePass) -> None:
    with make_context():
        module = ir.Module.parse(CONSTANT_FUNCTION)
        with pytest.raises(ir.MLIRError, match="have same type"):
            build_pass_manager([breaking]).run(module.operation)


def test_mlir_verifies_the_output_of_upstream_passes_once_per_run_of_them() -> None:
    with make_context():
        module = ir.Module.parse(CONSTANT_FUNCTION)
        _break_the_constant(module.operation)
        # Neither upstream pass looks at the constant's attribute: the verification at the end of the run does.
        with pytest.raises(ir.MLIRError, match="have same type"):
            build_pass_manager("builtin.module(strip-debuginfo,symbol-dce)").run(module.operation)


def test_the_simt_lowering_reads_every_operand_only_when_a_stray_is_suspected(monkeypatch: pytest.MonkeyPatch) -> None:
    # The per-operand check of ops outside simt (two calls into the bindings per value) runs only when the
    # screening from the converted values' producers finds one (tests/lit/conversion/simt-to-nvvm/errors.mlir
    # covers the reports); the GEMM has none, so its lowering never reads every operand.
    from oxide.passes.conversion import lowering

    checked = []
    monkeypatch.setattr(lowering._StrayValues, "check", lambda self, op: checked.append(op.name))
    context = make_context()
    module = compile_source(GEMM.read_text(), str(GEMM), context, INSTANCE).module
    with context:
        build_pass_manager(tile_to_llvm(Target("sm_90")), context).run(module.operation)
    assert checked == []
