// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm{chip=sm_90a})' | FileCheck %s
// RUN: %oxide-opt %s --emit=ptx --chip sm_90a -o %t.ptx && FileCheck %s --check-prefix=PTX < %t.ptx
// wgmma with A from registers is inline PTX (the NVVM dialect's op takes A only through a descriptor): the
// accumulator is tied in and out, A is four 32-bit registers, scale-d is a predicate set from the constant,
// and the immediates are A's and B's scales and B's transpose bit.

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @reg_a
    gpu.func @reg_a(%b: i64, %x: f32, %w: i32, %out: !llvm.ptr<1>) kernel {
      "simt.wgmma_fence"() : () -> ()
      // CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred p;\0Asetp.ne.b32 p, 1, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {$0, $1, $2, $3}, {$8, $9, $10, $11}, $12, p, 1, 1, 1;\0A}", "=f,=f,=f,=f,0,1,2,3,r,r,r,r,l"
      %r:4 = "simt.wgmma_mma_async_reg_a"(%x, %x, %x, %x, %w, %w, %w, %w, %b) {operandSegmentSizes = array<i32: 4, 4, 1>, m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_b = true} : (f32, f32, f32, f32, i32, i32, i32, i32, i64) -> (f32, f32, f32, f32)
      // CHECK: setp.ne.b32 p, 0, 0;\0Awgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{.*}} p, -1, 1, 0;
      %s:4 = "simt.wgmma_mma_async_reg_a"(%r#0, %r#1, %r#2, %r#3, %w, %w, %w, %w, %b) {operandSegmentSizes = array<i32: 4, 4, 1>, m = 64, n = 8, k = 16, input = "f16", accumulator = "f32", scale_d = "overwrite", negate_a = true, negate_b = false, transpose_b = false} : (f32, f32, f32, f32, i32, i32, i32, i32, i64) -> (f32, f32, f32, f32)
      "simt.wgmma_commit_group"() : () -> ()
      "simt.wgmma_wait_group"() {pending = 0} : () -> ()
      %sum = arith.addf %s#0, %s#3 : f32
      llvm.store %sum, %out : f32, !llvm.ptr<1>
      gpu.return
    }
  }
}
// PTX: wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// PTX: wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {{.*}}, p, -1, 1, 0;
