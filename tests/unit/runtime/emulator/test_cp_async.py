"""The emulator's cp.async model (oxide.runtime.emulator.cp_async): a copy lands when its thread's wait covers
its group, zero-fills past its source size, and a read of bytes whose copy has not completed — a kernel
that forgets the wait, or waits for too few groups — is a located error."""

from __future__ import annotations

import numpy as np
import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.runtime.emulator import launch
from oxide.runtime.emulator.errors import OutOfBounds
from oxide.runtime.emulator.shared_window import SharedMemoryError
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text

# Thread t copies 8 f16 (16 bytes) of `src` from element 8t into shared memory with the given source size,
# commits, waits for all but `pending` groups when `wait` is set, passes a barrier, and writes out the 8
# elements thread (t + 1) % 32 copied: every thread reads another thread's copy.
_KERNEL = """
    gpu.func @k(%src: !simt.ptr<f16, 1>, %out: !simt.ptr<f16, 1>, %size: i32, %wait: i1) kernel {
      %arr = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f16, 256>
      %sp = "simt.shared_ptr"(%arr) : (!simt.shared<f16, 256>) -> !simt.ptr<f16, 3>
      %t = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %c8 = arith.constant 8 : i32
      %c1 = arith.constant 1 : i32
      %c32 = arith.constant 32 : i32
      %e = arith.muli %t, %c8 : i32
      %ei = arith.index_cast %e : i32 to index
      %d = "simt.ptr_offset"(%sp, %ei) : (!simt.ptr<f16, 3>, index) -> !simt.ptr<f16, 3>
      %s = "simt.ptr_offset"(%src, %ei) : (!simt.ptr<f16, 1>, index) -> !simt.ptr<f16, 1>
      "simt.cp_async"(%d, %s, %size) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>, i32) -> ()
      "simt.cp_async_commit_group"() : () -> ()
      scf.if %wait {
        "simt.cp_async_wait_group"() {pending = PENDING : i64} : () -> ()
      }
      "simt.sync_threads"() : () -> ()
      %u = arith.addi %t, %c1 : i32
      %w = arith.remui %u, %c32 : i32
      %r = arith.muli %w, %c8 : i32
      %c0 = arith.constant 0 : index
      %c1i = arith.constant 1 : index
      %c8i = arith.constant 8 : index
      scf.for %j = %c0 to %c8i step %c1i {
        %ri = arith.index_cast %r : i32 to index
        %at = arith.addi %ri, %j : index
        %from = "simt.ptr_offset"(%sp, %at) : (!simt.ptr<f16, 3>, index) -> !simt.ptr<f16, 3>
        %v = "simt.ptr_load"(%from) : (!simt.ptr<f16, 3>) -> f16
        %to = "simt.ptr_offset"(%out, %at) : (!simt.ptr<f16, 1>, index) -> !simt.ptr<f16, 1>
        "simt.ptr_store"(%to, %v) : (!simt.ptr<f16, 1>, f16) -> ()
      }
      gpu.return
    }"""


def _run(size: int, wait: bool, pending: int = 0) -> np.ndarray:
    with context(), ir.Location.unknown():
        program = emit_program(ir.Module.parse(module_text(_KERNEL.replace("PENDING", str(pending)))))
    src = np.arange(256, dtype=np.float16) + 1
    out = np.full(256, -1, np.float16)
    launch(program, "k", (1, 1, 1), (32, 1, 1), [src, out, np.int32(size), np.bool_(wait)])
    return out


def test_copies_land_after_the_wait_and_a_barrier():
    np.testing.assert_array_equal(_run(16, True), np.arange(256, dtype=np.float16) + 1)


@pytest.mark.parametrize("size", [0, 6, 10])
def test_bytes_past_the_source_size_are_zero(size):
    expected = (np.arange(256, dtype=np.float16) + 1).reshape(32, 8)
    expected[:, size // 2:] = 0
    np.testing.assert_array_equal(_run(size, True), expected.reshape(-1))


def test_a_kernel_that_forgets_the_wait_fails():
    with pytest.raises(SharedMemoryError, match=r"reads shared memory a cp.async of thread 1 of the block has not "
                                                r"completed .*cp_async_wait_group"):
        _run(16, False)


def test_a_wait_that_leaves_the_group_pending_fails():
    with pytest.raises(SharedMemoryError, match="a cp.async of thread 1 of the block has not completed"):
        _run(16, True, pending=1)


def test_a_source_size_past_the_copy_is_refused():
    with pytest.raises(SharedMemoryError, match=r"cp.async src_size 20 is outside 0..16"):
        _run(20, True)


# Each thread's source is one chunk further on: the last thread's reads past the end of `src`.
_PAST_THE_END = _KERNEL.replace(
    '%s = "simt.ptr_offset"(%src, %ei)',
    '%shifted = arith.addi %e, %c8 : i32\n      %si = arith.index_cast %shifted : i32 to index\n'
    '      %s = "simt.ptr_offset"(%src, %si)')


def test_a_copy_that_reads_past_its_source_is_out_of_bounds():
    with context(), ir.Location.unknown():
        program = emit_program(ir.Module.parse(module_text(_PAST_THE_END.replace("PENDING", "0"))))
    src = np.arange(256, dtype=np.float16)
    with pytest.raises(OutOfBounds, match=r"a cp.async reads bytes 512..528 of"):
        launch(program, "k", (1, 1, 1), (32, 1, 1), [src, np.zeros(256, np.float16), np.int32(16), np.bool_(True)])
