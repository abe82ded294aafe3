// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm{chip=sm_90a})' | FileCheck %s
// The warpgroup ops lower to the NVVM dialect's own wgmma and setmaxregister ops; a matrix descriptor to
// arithmetic on the shared address.

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @mma
    gpu.func @mma(%a: i64, %b: i64, %x: f32, %out: !llvm.ptr<1>) kernel {
      // CHECK: nvvm.wgmma.fence.aligned
      "simt.wgmma_fence"() : () -> ()
      // CHECK: llvm.insertvalue
      // CHECK: nvvm.wgmma.mma_async %{{.*}}, <m = 64, n = 8, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>] : !llvm.struct<(f32, f32, f32, f32)>
      // CHECK-COUNT-4: llvm.extractvalue
      %r:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %b) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 8, k = 16>, D[<f32>, <zero>], A[<f16>, <neg>, <col>], B[<f16>, <neg>, <row>]
      %s:4 = "simt.wgmma_mma_async"(%r#0, %r#1, %r#2, %r#3, %a, %b) {m = 64, n = 8, k = 16, input = "f16", accumulator = "f32", scale_d = "overwrite", negate_a = true, negate_b = true, transpose_a = true, transpose_b = true} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 8, k = 8>, D[<f32>, <one>], A[<tf32>, <one>, <row>], B[<tf32>, <one>, <col>]
      %t:4 = "simt.wgmma_mma_async"(%s#0, %s#1, %s#2, %s#3, %a, %b) {m = 64, n = 8, k = 8, input = "tf32", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 8, k = 32>, D[<f32>, <one>], A[<e4m3>, <one>, <row>], B[<e4m3>, <one>, <col>]
      %u:4 = "simt.wgmma_mma_async"(%t#0, %t#1, %t#2, %t#3, %a, %b) {m = 64, n = 8, k = 32, input = "e4m3", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // CHECK: nvvm.wgmma.commit.group.sync.aligned
      "simt.wgmma_commit_group"() : () -> ()
      // CHECK: nvvm.wgmma.wait.group.sync.aligned 0
      "simt.wgmma_wait_group"() {pending = 0} : () -> ()
      llvm.store %u#3, %out : f32, !llvm.ptr<1>
      gpu.return
    }

    // A wgmma whose accumulator is the previous one's result, in order, takes that result struct as it is;
    // any other accumulator (here the same registers in another order) is packed into a new struct.
    // CHECK-LABEL: gpu.func @chained
    gpu.func @chained(%a: i64, %b: i64, %x: f32, %out: !llvm.ptr<1>) kernel {
      // CHECK: [[FIRST:%[0-9]+]] = nvvm.wgmma.mma_async
      %r:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %b) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // CHECK-NOT: llvm.insertvalue
      // CHECK: nvvm.wgmma.mma_async %{{.*}}, %{{.*}}, [[FIRST]],
      %s:4 = "simt.wgmma_mma_async"(%r#0, %r#1, %r#2, %r#3, %a, %b) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      // CHECK-COUNT-4: llvm.insertvalue
      // CHECK: nvvm.wgmma.mma_async
      %t:4 = "simt.wgmma_mma_async"(%s#1, %s#0, %s#2, %s#3, %a, %b) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
      "simt.wgmma_wait_group"() {pending = 0} : () -> ()
      llvm.store %t#3, %out : f32, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @f16_accumulator
    gpu.func @f16_accumulator(%a: i64, %b: i64, %h: vector<2xf16>, %out: !llvm.ptr<1>) kernel {
      // CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 8, k = 32>, D[<f16>, <one>], A[<e5m2>, <one>, <row>], B[<e5m2>, <one>, <col>] : !llvm.struct<(vector<2xf16>, vector<2xf16>)>
      %r:2 = "simt.wgmma_mma_async"(%h, %h, %a, %b) {m = 64, n = 8, k = 32, input = "e5m2", accumulator = "f16", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>)
      "simt.wgmma_wait_group"() {pending = 0} : () -> ()
      llvm.store %r#1, %out : vector<2xf16>, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @descriptors
    gpu.func @descriptors(%p: !simt.ptr<bf16, 3>, %s: i32, %out: !llvm.ptr<1>) kernel {
      // The start address field: (address >> 4) & 0x3fff, or-ed with the constant fields.
      // CHECK: llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
      // CHECK: arith.shrui
      // CHECK: arith.constant 16383 : i64
      // CHECK: arith.andi
      // 128B swizzle (1 << 62), base offset 0, SBO 1024 >> 4 = 64 (64 << 32), LBO 16 >> 4 = 1 (1 << 16):
      // CHECK: arith.constant 4611686293305360384 : i64
      // CHECK: arith.ori
      %d = "simt.smem_desc"(%p) {leading_byte_offset = 16, stride_byte_offset = 1024, swizzle = "128B", base_offset = 0} : (!simt.ptr<bf16, 3>) -> i64
      // cuda-oxide's fixed descriptor: 0xC000000800080000 (32B swizzle, both offsets 128 bytes) as a signed i64.
      // CHECK: arith.extui %{{.*}} : i32 to i64
      // CHECK: arith.constant -4611685984067125248 : i64
      %e = "simt.smem_desc"(%s) {leading_byte_offset = 128, stride_byte_offset = 128, swizzle = "32B", base_offset = 0} : (i32) -> i64
      // 64B swizzle (2 << 62) with base offset 5 (5 << 49):
      // CHECK: arith.constant -9220557287087669248 : i64
      %f = "simt.smem_desc"(%s) {leading_byte_offset = 0, stride_byte_offset = 0, swizzle = "64B", base_offset = 5} : (i32) -> i64
      %g = arith.xori %d, %e : i64
      %h = arith.xori %g, %f : i64
      llvm.store %h, %out : i64, !llvm.ptr<1>
      gpu.return
    }

    // CHECK-LABEL: gpu.func @registers
    gpu.func @registers() kernel {
      // CHECK: nvvm.setmaxregister {{ *}}decrease 40
      "simt.setmaxnreg"() {regs = 40, action = "dec"} : () -> ()
      // CHECK: nvvm.setmaxregister {{ *}}increase 232
      "simt.setmaxnreg"() {regs = 232, action = "inc"} : () -> ()
      gpu.return
    }
  }
}
