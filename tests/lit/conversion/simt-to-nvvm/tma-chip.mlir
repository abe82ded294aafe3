// REQUIRES: ptxas
// TMA needs sm_90 (a located error on an older chip), multicast sm_90a; ptxas assembles the PTX for sm_90a,
// and for sm_90 without multicast.
// RUN: %oxide-opt %S/tma.mlir --emit=ptx --chip sm_90a -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: not %oxide-opt %s --emit=ptx --chip sm_80 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not %oxide-opt %s --emit=ptx --chip sm_90 2>&1 | FileCheck %s --check-prefix=SM90

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copies(%map: !simt.tensor_map, %x: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>, %mask: i16) kernel {
      // SM80: tma-chip.mlir:[[# @LINE + 2]]:7: error: cp.async.bulk.tensor (a TMA load) needs sm_90 or newer, but the target is sm_80; TMA exists from Hopper on
      // SM90-NOT: tma-chip.mlir:[[# @LINE + 1]]:{{.*}}error
      "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, !simt.ptr<i64, 3>) -> ()
      // SM90: tma-chip.mlir:[[# @LINE + 1]]:7: error: TMA multicast needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)
      "simt.tma_load"(%dst, %map, %x, %bar, %mask) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, !simt.ptr<i64, 3>, i16) -> ()
      // SM80: tma-chip.mlir:[[# @LINE + 1]]:7: error: cp.async.bulk.tensor (a TMA store) needs sm_90 or newer
      "simt.tma_store"(%map, %dst, %x) : (!simt.tensor_map, !simt.ptr<i8, 3>, i32) -> ()
      // SM80: tma-chip.mlir:[[# @LINE + 1]]:7: error: cp.async.bulk.commit_group needs sm_90 or newer
      "simt.bulk_commit_group"() : () -> ()
      // SM80: tma-chip.mlir:[[# @LINE + 1]]:7: error: cp.async.bulk.wait_group needs sm_90 or newer
      "simt.bulk_wait_group"() {pending = 0 : i64, until = "complete"} : () -> ()
      // SM80: tma-chip.mlir:[[# @LINE + 1]]:7: error: prefetch.tensormap needs sm_90 or newer
      "simt.tma_prefetch"(%map) : (!simt.tensor_map) -> ()
      gpu.return
    }
  }
}
