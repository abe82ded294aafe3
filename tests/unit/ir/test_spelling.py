"""Types' printed text and parameters remembered while a compile's passes run (oxide/ir/spelling.py): the same
answers as printing and parsing every time, and nothing kept once the run ends (no context kept alive)."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from mlir import ir

import oxide
from oxide.dialects.context import make_context
from oxide.dialects.simt import PtrType
from oxide.ir.spelling import spelling, types_remembered

I64 = "3 : i64"


def test_remembered_parameters_are_those_the_text_says_and_a_fresh_list_each_time() -> None:
    with make_context(), ir.Location.unknown(), types_remembered():
        ptr = ir.Type.parse("!simt.ptr<f32, 3>")
        first = PtrType.parameters_of(ptr)
        assert [str(p) for p in first] == ["f32", I64]
        first.append("changed by the caller")
        assert [str(p) for p in PtrType.parameters_of(ptr)] == ["f32", I64]
        assert spelling(ptr) == str(ptr)
        three = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 3)
        assert PtrType.get(ir.F32Type.get(), three) == ptr
        assert PtrType.get(ir.F32Type.get(), three) == ptr  # the remembered one
        assert [str(p) for p in PtrType.parameters_of("!simt.ptr<f32, 1>")] == ["f32", "1 : i64"]


def test_two_contexts_in_one_run_get_their_own_types() -> None:
    with types_remembered():
        for _ in range(2):
            context = make_context()
            with context, ir.Location.unknown():
                got = PtrType.get(ir.F16Type.get(), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1))
                assert got.context is context
                assert PtrType.parameters_of(got)[0].context is context


def test_nothing_is_kept_once_the_run_ends() -> None:
    context = make_context()
    with context, ir.Location.unknown(), types_remembered():
        PtrType.parameters_of(ir.Type.parse("!simt.ptr<i32, 0>"))
    gone = weakref.ref(context)
    del context
    gc.collect()
    assert gone() is None


def test_a_compile_leaves_its_context_free() -> None:
    gemm = Path(__file__).resolve().parents[3] / "examples" / "tile" / "gemm.rs"
    with make_context():  # the count below sees contexts at all
        assert any(isinstance(o, ir.Context) for o in gc.get_objects())
    oxide.compile_file(gemm, "sm_90", {"gemm": [["16", "16", "16"]]})
    gc.collect()
    contexts = [o for o in gc.get_objects() if isinstance(o, ir.Context)]
    oxide.compile_file(gemm, "sm_90", {"gemm": [["16", "16", "16"]]})
    gc.collect()
    assert len([o for o in gc.get_objects() if isinstance(o, ir.Context)]) <= len(contexts)
