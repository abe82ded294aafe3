// Below sm_80 there is no mma.sync with bf16/tf32 nor ldmatrix: tile.mma of any shape lowers to FMA loops
// (mma_fma.py). The operands are staged in shared memory as f32 (bf16 widened), then one scf.for over K
// multiplies and adds on the accumulator layout's own registers; no Tensor Core instruction is emitted.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_75})' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @old_chip
    gpu.func @old_chip(%c: !tile.view_mut<f32, array<i64: 32, 32>>, %a: !tile.view<bf16, array<i64: 32, 16>>, %b: !tile.view<bf16, array<i64: 16, 32>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: 32, 16>>) -> !tile.partition<bf16, array<i64: 32, 16>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: 16, 32>>) -> !tile.partition<bf16, array<i64: 16, 32>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<bf16, array<i64: 32, 16>>, i32, i32) -> tensor<32x16xbf16>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<bf16, array<i64: 16, 32>>, i32, i32) -> tensor<16x32xbf16>
      %zero = arith.constant dense<0.0> : tensor<32x32xf32>
      // CHECK-NOT: nvvm.mma.sync
      // CHECK-NOT: ldmatrix
      // CHECK: arith.extf %{{.*}} : bf16 to f32
      // CHECK: "simt.ptr_store"
      // CHECK: "simt.sync_threads"
      // CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
      // CHECK: "simt.ptr_load"
      // CHECK: arith.mulf
      // CHECK: arith.addf
      // CHECK: scf.yield
      // CHECK-NOT: nvvm.mma.sync
      %r = "tile.mma"(%ta, %tb, %zero) : (tensor<32x16xbf16>, tensor<16x32xbf16>, tensor<32x32xf32>) -> tensor<32x32xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 32, 32>>, tensor<32x32xf32>) -> ()
      gpu.return
    }
  }
}
