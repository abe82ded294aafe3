// tile.mma inputs the Tensor Core lowering refuses get a located error that says what to change.
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(convert-tile-to-simt)'

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @too_much_shared(%c: !tile.view_mut<f32, array<i64: 256, 256>>, %a: !tile.view<f32, array<i64: 256, 256>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f32, array<i64: 256, 256>>) -> !tile.partition<f32, array<i64: 256, 256>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f32, array<i64: 256, 256>>, i32, i32) -> tensor<256x256xf32>
      %zero = arith.constant dense<0.0> : tensor<256x256xf32>
      // expected-error @below {{stages 536576 bytes in shared memory, more than the 232448 a block may use; use a smaller K tile}}
      %r = "tile.mma"(%ta, %ta, %zero) : (tensor<256x256xf32>, tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 256, 256>>, tensor<256x256xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// An FMA product (N below 8) whose f32 staging does not fit in a block's shared memory (the 227 KiB of sm_90): a located error on its kernel.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @below {{this tile kernel needs 262144 bytes of shared memory for layout conversions, reductions and mma staging, more than the 232448 a block of sm_90 has}}
    gpu.func @too_much_shared_fma(%c: !tile.view_mut<f32, array<i64: 8, 8>>, %a: !tile.view<f32, array<i64: 8, 4096>>, %b: !tile.view<f32, array<i64: 4096, 8>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f32, array<i64: 8, 4096>>) -> !tile.partition<f32, array<i64: 8, 4096>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f32, array<i64: 4096, 8>>) -> !tile.partition<f32, array<i64: 4096, 8>>
      %ta = "tile.load"(%pa, %c0, %c0) : (!tile.partition<f32, array<i64: 8, 4096>>, i32, i32) -> tensor<8x4096xf32>
      %tb = "tile.load"(%pb, %c0, %c0) : (!tile.partition<f32, array<i64: 4096, 8>>, i32, i32) -> tensor<4096x8xf32>
      %zero = arith.constant dense<0.0> : tensor<8x8xf32>
      %r = "tile.mma"(%ta, %tb, %zero) : (tensor<8x4096xf32>, tensor<4096x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
      "tile.store_own"(%c, %r) : (!tile.view_mut<f32, array<i64: 8, 8>>, tensor<8x8xf32>) -> ()
      gpu.return
    }
  }
}
