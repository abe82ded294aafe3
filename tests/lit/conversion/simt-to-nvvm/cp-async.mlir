// cp.async ops lower to the NVVM dialect's own ops: 16-byte copies cache in L2 only (.cg), smaller ones .ca;
// a source size is the zero-fill operand.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm{chip=sm_80})' | FileCheck %s --check-prefix=NVVM
// RUN: %oxide-opt %s --emit=ptx --chip sm_80 | FileCheck %s --check-prefix=PTX

module attributes {gpu.container_module} {
  gpu.module @k {
    // PTX-LABEL: .entry copy(
    gpu.func @copy(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 1>, %n: i32) kernel {
      // NVVM: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg : !llvm.ptr<3>, !llvm.ptr<1>
      // PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
      "simt.cp_async"(%d, %s) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>) -> ()
      // NVVM: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
      // PTX: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
      "simt.cp_async"(%d, %s, %n) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>, i32) -> ()
      // NVVM: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 8, cache = ca : !llvm.ptr<3>, !llvm.ptr<1>
      // PTX: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 8;
      "simt.cp_async"(%d, %s) {bytes = 8 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>) -> ()
      // NVVM: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 4, cache = ca, %{{.*}}
      // PTX: cp.async.ca.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 4, %r{{[0-9]+}};
      "simt.cp_async"(%d, %s, %n) {bytes = 4 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>, i32) -> ()
      // NVVM: nvvm.cp.async.commit.group
      // PTX: cp.async.commit_group;
      "simt.cp_async_commit_group"() : () -> ()
      // NVVM: nvvm.cp.async.wait.group 1
      // PTX: cp.async.wait_group {{[[:space:]]*}}1;
      "simt.cp_async_wait_group"() {pending = 1 : i64} : () -> ()
      gpu.return
    }
  }
}
