// REQUIRES: ptxas
// The warpgroup lowering's PTX assembles for sm_90a, and wgmma and setmaxnreg on any other target are a
// located error at the op.
// RUN: %oxide-opt %S/wgmma.mlir --emit=ptx --chip=sm_90a -o %t.wgmma.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.wgmma.ptx
// RUN: ptxas -arch=sm_90a %t.wgmma.ptx -o %t.wgmma.cubin
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_90 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not %oxide-opt %s --emit=ptx --chip=sm_100a 2>&1 | FileCheck %s --check-prefix=SM100A

// PTX: wgmma.fence.sync.aligned
// PTX: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16
// PTX: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16
// PTX: wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32
// PTX: wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3
// PTX: wgmma.commit_group.sync.aligned
// PTX: wgmma.wait_group.sync.aligned
// PTX: wgmma.mma_async.sync.aligned.m64n8k32.f16.e5m2.e5m2
// PTX: setmaxnreg.dec.sync.aligned.u32 {{.*}}40
// PTX: setmaxnreg.inc.sync.aligned.u32 {{.*}}232

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @mma(%a: i64, %b: i64, %x: f32, %out: !llvm.ptr<1>) kernel {
      // SM90: wgmma-chip.mlir:[[# @LINE + 2]]:7: error: wgmma needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)
      // SM100A: wgmma-chip.mlir:[[# @LINE + 1]]:7: error: wgmma needs sm_90a; this build targets sm_100a (compile with --chip sm_90a)
      "simt.wgmma_fence"() : () -> ()
      // SM90: wgmma-chip.mlir:[[# @LINE + 1]]:14: error: wgmma needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)
      %r:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %b) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // SM90: wgmma-chip.mlir:[[# @LINE + 1]]:7: error: wgmma needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)
      "simt.wgmma_commit_group"() : () -> ()
      // SM90: wgmma-chip.mlir:[[# @LINE + 1]]:7: error: wgmma needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)
      "simt.wgmma_wait_group"() {pending = 0} : () -> ()
      // SM90: wgmma-chip.mlir:[[# @LINE + 1]]:7: error: setmaxnreg needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)
      "simt.setmaxnreg"() {regs = 40, action = "dec"} : () -> ()
      llvm.store %r#0, %out : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}
