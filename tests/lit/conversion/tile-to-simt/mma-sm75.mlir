// mma.sync with bf16/tf32 and ldmatrix need sm_80: for an older target tile.mma is a located error.
// RUN: %oxide-opt %s --verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_75})'

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @old_chip(%c: !tile.view_mut<f32, array<i64: 32, 32>>, %a: !tile.view<bf16, array<i64: 32, 16>>, %b: !tile.view<bf16, array<i64: 16, 32>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: 32, 16>>) -> !tile.partition<bf16, array<i64: 32, 16>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: 16, 32>>) -> !tile.partition<bf16, array<i64: 16, 32>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<bf16, array<i64: 32, 16>>, i32, i32) -> tensor<32x16xbf16>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<bf16, array<i64: 16, 32>>, i32, i32) -> tensor<16x32xbf16>
      %zero = arith.constant dense<0.0> : tensor<32x32xf32>
      // expected-error @below {{tile.mma lowers to mma.sync and ldmatrix, which need sm_80 or newer; the target is sm_75}}
      %r = "tile.mma"(%ta, %tb, %zero) : (tensor<32x16xbf16>, tensor<16x32xbf16>, tensor<32x32xf32>) -> tensor<32x32xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 32, 32>>, tensor<32x32xf32>) -> ()
      gpu.return
    }
  }
}
