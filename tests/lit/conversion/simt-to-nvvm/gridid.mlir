// %gridid is read with a mov: LLVM 22 asserts (and aborts the compiler) when its optimiser meets
// llvm.nvvm.read.ptx.sreg.gridid in 64-bit arithmetic, e.g. the launch id plus a zero-extended warp id.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: .entry launch_id(
    gpu.func @launch_id(%out: !simt.slice_mut<i64>) kernel {
      // CHECK: mov.u64 %rd{{[0-9]+}}, %gridid;
      %w = "simt.special_reg"() {reg = "warpid"} : () -> i32
      %g = "simt.special_reg"() {reg = "gridid"} : () -> i64
      %w64 = arith.extui %w : i32 to i64
      %sum = arith.addi %g, %w64 : i64
      %zero = arith.constant 0 : index
      "simt.store"(%out, %zero, %sum) : (!simt.slice_mut<i64>, index, i64) -> ()
      gpu.return
    }
  }
}
