// Constant memory: a host-written global in address space 4, read through simt.constant_addr. The global
// is external and not `constant`, so the loads stay loads from .const.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline="builtin.module(convert-simt-to-nvvm)" | FileCheck %s --check-prefix=IR

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK: .visible .const .align 4 .f32 SCALE;
    llvm.mlir.global external @SCALE(0.000000e+00 : f32) {addr_space = 4 : i32} : f32

    // CHECK-LABEL: .entry scale(
    gpu.func @scale(%out: !simt.slice_mut<f32>) kernel {
      // IR: llvm.mlir.addressof @SCALE : !llvm.ptr<4>
      %p = "simt.constant_addr"() {symbol = "SCALE"} : () -> !simt.ptr<f32, 4>
      // CHECK: ld.const.b32 %r{{[0-9]+}}, [SCALE];
      %s = "simt.ptr_load"(%p) : (!simt.ptr<f32, 4>) -> f32
      %zero = arith.constant 0 : index
      "simt.store"(%out, %zero, %s) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }
  }
}
