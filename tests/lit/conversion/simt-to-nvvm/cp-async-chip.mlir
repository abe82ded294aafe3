// REQUIRES: ptxas
// cp.async needs sm_80 (a located error on an older chip); ptxas assembles the PTX for sm_80 and sm_86.
// RUN: %oxide-opt %S/cp-async.mlir --emit=ptx --chip sm_80 -o %t.80.ptx
// RUN: ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
// RUN: %oxide-opt %S/cp-async.mlir --emit=ptx --chip sm_86 -o %t.86.ptx
// RUN: ptxas -arch=sm_86 %t.86.ptx -o %t.86.cubin
// RUN: not %oxide-opt %s --emit=ptx --chip sm_75 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @copies(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 1>) kernel {
      // CHECK: cp-async-chip.mlir:[[# @LINE + 1]]:7: error: cp.async needs sm_80 or newer, but the target is sm_75; asynchronous copies exist from Ampere on
      "simt.cp_async"(%d, %s) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>) -> ()
      // CHECK: cp-async-chip.mlir:[[# @LINE + 1]]:7: error: cp.async.commit_group needs sm_80 or newer
      "simt.cp_async_commit_group"() : () -> ()
      // CHECK: cp-async-chip.mlir:[[# @LINE + 1]]:7: error: cp.async.wait_group needs sm_80 or newer
      "simt.cp_async_wait_group"() {pending = 0 : i64} : () -> ()
      gpu.return
    }
  }
}
