// An address kept as an integer comes back as a global or shared pointer: int_to_ptr gives the generic
// pointer, from_generic the pointer in its space (addrspacecast, cvta.to.shared in PTX).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx > %t.ptx && ptxas -arch=sm_90 %t.ptx -o /dev/null
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @round_trip(
    // NVVM: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr
    // NVVM: llvm.addrspacecast %{{.*}} : !llvm.ptr to !llvm.ptr<3>
    // CHECK-LABEL: .entry round_trip(
    // CHECK: cvta.to.shared.u64
    gpu.func @round_trip(%out: !simt.slice_mut<i32>, %address: i64) kernel {
      %g = "simt.int_to_ptr"(%address) : (i64) -> !simt.ptr<i32, 0>
      %s = "simt.from_generic"(%g) : (!simt.ptr<i32, 0>) -> !simt.ptr<i32, 3>
      %v = "simt.ptr_load"(%s) : (!simt.ptr<i32, 3>) -> i32
      %c0 = arith.constant 0 : index
      "simt.store"(%out, %c0, %v) : (!simt.slice_mut<i32>, index, i32) -> ()
      gpu.return
    }
  }
}
