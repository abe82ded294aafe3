// tile.mma smaller than one Tensor Core fragment (M < 16, N < 8, or K below the instruction's K) verifies and
// lowers to FMA loops on any chip, here sm_90: the cutile-rs examples' async_gemm (16x8 by 8x16 f16, K = 8
// below m16n8k16's 16) and async_mlp (4x4 by 4x4 f32, here as tf32 tiles, whose inputs are rounded to tf32 as
// the Tensor Cores would: add 0x1000, clear the 13 low bits) and its matrix-vector product (N = 1, f32 tiles:
// multiplied unrounded, at f32 accuracy). A fragment-sized product in the same module keeps mma.sync.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90})' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @k_below_fragment
    gpu.func @k_below_fragment(%va: !tile.view<f16, array<i64: 16, 8>>, %vb: !tile.view<f16, array<i64: 8, 16>>, %c: !tile.view_mut<f32, array<i64: 16, 16>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%va) : (!tile.view<f16, array<i64: 16, 8>>) -> !tile.partition<f16, array<i64: 16, 8>>
      %a = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f16, array<i64: 16, 8>>, i32, i32) -> tensor<16x8xf16>
      %pb = "tile.make_partition"(%vb) : (!tile.view<f16, array<i64: 8, 16>>) -> !tile.partition<f16, array<i64: 8, 16>>
      %b = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f16, array<i64: 8, 16>>, i32, i32) -> tensor<8x16xf16>
      %zero = arith.constant dense<0.0> : tensor<16x16xf32>
      // CHECK-NOT: nvvm.mma.sync
      // CHECK: arith.extf %{{.*}} : f16 to f32
      // CHECK: scf.for
      // CHECK: arith.mulf
      // CHECK-NEXT: arith.addf
      // CHECK-NOT: nvvm.mma.sync
      // CHECK: gpu.return
      %r = "tile.mma"(%a, %b, %zero) : (tensor<16x8xf16>, tensor<8x16xf16>, tensor<16x16xf32>) -> tensor<16x16xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 16, 16>>, tensor<16x16xf32>) -> ()
      gpu.return
    }

    // CHECK-LABEL: gpu.func @tiny_tf32
    gpu.func @tiny_tf32(%va: !tile.view<f32, array<i64: 4, 4>>, %vv: !tile.view<f32, array<i64: 4, 1>>, %c: !tile.view_mut<f32, array<i64: 4, 1>>) kernel attributes {tile.warps = 1 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%va) : (!tile.view<f32, array<i64: 4, 4>>) -> !tile.partition<f32, array<i64: 4, 4>>
      %a = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f32, array<i64: 4, 4>>, i32, i32) -> tensor<4x4xf32>
      %pv = "tile.make_partition"(%vv) : (!tile.view<f32, array<i64: 4, 1>>) -> !tile.partition<f32, array<i64: 4, 1>>
      %v = "tile.load"(%pv, %c0, %c0) : (!tile.partition<f32, array<i64: 4, 1>>, i32, i32) -> tensor<4x1xf32>
      %zero = arith.constant dense<0.0> : tensor<4x4xf32>
      %col = arith.constant dense<0.0> : tensor<4x1xf32>
      // CHECK-DAG: %[[HALF:.*]] = arith.constant 4096 : i32
      // CHECK-DAG: %[[MASK:.*]] = arith.constant -8192 : i32
      // CHECK: %[[BITS:.*]] = arith.bitcast %{{.*}} : f32 to i32
      // CHECK: %[[UP:.*]] = arith.addi %[[BITS]], %[[HALF]]
      // CHECK: arith.andi %[[UP]], %[[MASK]]
      // CHECK: scf.for
      %p = "tile.mma"(%a, %a, %zero) {tile.tf32} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
      // CHECK-NOT: arith.andi %{{.*}}, %[[MASK]]
      // CHECK: scf.for
      %r = "tile.mma"(%p, %v, %col) : (tensor<4x4xf32>, tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 4, 1>>, tensor<4x1xf32>) -> ()
      gpu.return
    }

    // CHECK-LABEL: gpu.func @one_fragment
    gpu.func @one_fragment(%va: !tile.view<f16, array<i64: 16, 16>>, %vb: !tile.view<f16, array<i64: 16, 8>>, %c: !tile.view_mut<f32, array<i64: 16, 8>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%va) : (!tile.view<f16, array<i64: 16, 16>>) -> !tile.partition<f16, array<i64: 16, 16>>
      %a = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f16, array<i64: 16, 16>>, i32, i32) -> tensor<16x16xf16>
      %pb = "tile.make_partition"(%vb) : (!tile.view<f16, array<i64: 16, 8>>) -> !tile.partition<f16, array<i64: 16, 8>>
      %b = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f16, array<i64: 16, 8>>, i32, i32) -> tensor<16x8xf16>
      %zero = arith.constant dense<0.0> : tensor<16x8xf32>
      // CHECK: nvvm.mma.sync
      %r = "tile.mma"(%a, %b, %zero) : (tensor<16x16xf16>, tensor<16x8xf16>, tensor<16x8xf32>) -> tensor<16x8xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 16, 8>>, tensor<16x8xf32>) -> ()
      gpu.return
    }
  }
}
