// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @load_wrong_shape(%p: !tile.partition<f32, array<i64: 128>>, %i: i32) {
  // expected-error@+1 {{the loaded tile has shape [64], but the tile shape here is [128]}}
  %t = "tile.load"(%p, %i) : (!tile.partition<f32, array<i64: 128>>, i32) -> tensor<64xf32>
  return
}

// -----

func.func @load_wrong_index_count(%p: !tile.partition<f32, array<i64: 16, 16>>, %i: i32) {
  // expected-error@+1 {{a rank-2 partition takes 2 tile indices, got 1}}
  %t = "tile.load"(%p, %i) : (!tile.partition<f32, array<i64: 16, 16>>, i32) -> tensor<16x16xf32>
  return
}

// -----

func.func @tile_not_power_of_two(%v: !tile.view<f32, array<i64: -1>>) {
  // expected-error@+1 {{partition tile shape [96]: every tile dimension must be a power of two}}
  %p = "tile.make_partition"(%v) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 96>>
  return
}

// -----

func.func @partition_rank(%v: !tile.view<f32, array<i64: -1, -1>>) {
  // expected-error@+1 {{a rank-2 tensor needs a rank-2 tile shape, got [128]}}
  %p = "tile.make_partition"(%v) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 128>>
  return
}

// -----

func.func @partition_elem(%v: !tile.view<f32, array<i64: -1>>) {
  // expected-error@+1 {{partition: element types differ (f32 and f16)}}
  %p = "tile.make_partition"(%v) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f16, array<i64: 128>>
  return
}

// -----

func.func @partition_mut_must_divide(%z: !tile.view_mut<f32, array<i64: 64>>) {
  // expected-error@+1 {{tile shape [128] must have the rank of the block's tile [64] and divide it}}
  %p = "tile.make_partition_mut"(%z) : (!tile.view_mut<f32, array<i64: 64>>) -> !tile.partition_mut<f32, array<i64: 128>>
  return
}

// -----

func.func @store_wrong_tile(%z: !tile.view_mut<f32, array<i64: 64>>, %t: tensor<32xf32>) {
  // expected-error@+1 {{the stored tile has shape [32], but the tile shape here is [64]}}
  "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 64>>, tensor<32xf32>) -> ()
  return
}

// -----

func.func @store_to_read_partition(%p: !tile.partition<f32, array<i64: 64>>, %t: tensor<64xf32>, %i: i32) {
  // expected-error@+1 {{expected base type 'tile.partition_mut' but got 'tile.partition'}}
  "tile.store"(%p, %t, %i) : (!tile.partition<f32, array<i64: 64>>, tensor<64xf32>, i32) -> ()
  return
}

// -----

func.func @output_rank(%z: !tile.view_mut<f32, array<i64: 2, 2, 2, 2>>, %t: tensor<2x2x2x2xf32>) {
  // expected-error@+1 {{an output has rank at most 3 (the launch grid has three axes)}}
  "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 2, 2, 2, 2>>, tensor<2x2x2x2xf32>) -> ()
  return
}

// -----

func.func @broadcast_bad(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{cannot broadcast shape [4, 2] to [4, 8]: dimension 2 is neither 1 nor 8}}
  %b = "tile.broadcast"(%t) : (tensor<4x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @reshape_count(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{cannot reshape [4, 2] (8 elements) to [16] (16 elements)}}
  %b = "tile.reshape"(%t) : (tensor<4x2xf32>) -> tensor<16xf32>
  return
}

// -----

func.func @permute_not_permutation(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{[0, 0] is not a permutation of the 2 dimensions}}
  %b = "tile.permute"(%t) {perm = array<i64: 0, 0>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @permute_shape(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{permuting [4, 2] by [1, 0] gives [2, 4], not [4, 2]}}
  %b = "tile.permute"(%t) {perm = array<i64: 1, 0>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @cat_shape(%a: tensor<4x2xf32>, %b: tensor<4x2xf32>) {
  // expected-error@+1 {{joining [4, 2] and [4, 2] along dimension 1 does not give [8, 2]}}
  %c = "tile.cat"(%a, %b) {dim = 1 : i64} : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>
  return
}

// -----

func.func @extract_divides(%t: tensor<8xf32>, %i: i32) {
  // expected-error@+1 {{a [4, 4] sub-tile must have the rank of [8] and divide it}}
  %c = "tile.extract"(%t, %i) : (tensor<8xf32>, i32) -> tensor<4x4xf32>
  return
}

// -----

func.func @to_scalar_many(%t: tensor<8xf32>) {
  // expected-error@+1 {{tile_to_scalar needs a single-element tile, got shape [8]}}
  %c = "tile.to_scalar"(%t) : (tensor<8xf32>) -> f32
  return
}

// -----

func.func @splat_type(%x: f32) {
  // expected-error@+1 {{splatting a f32 into a tile of f16}}
  %c = "tile.splat"(%x) : (f32) -> tensor<8xf16>
  return
}

// -----

func.func @iota_rank() {
  // expected-error@+1 {{iota makes a rank-1 integer tile, not tensor<4x4xi32>}}
  %c = "tile.iota"() : () -> tensor<4x4xi32>
  return
}

// -----

func.func @reduce_keeps_dim(%t: tensor<4x8xf32>) {
  // expected-error@+1 {{reducing [4, 8] along dimension 1 gives [4], not [4, 1]}}
  %c = "tile.reduce"(%t) {dim = 1 : i64, kind = "sum", unsigned = false} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return
}

// -----

func.func @reduce_bool(%t: tensor<8xi1>) {
  // expected-error@+1 {{cannot sum-reduce a tile of booleans}}
  %c = "tile.reduce"(%t) {dim = 0 : i64, kind = "sum", unsigned = false} : (tensor<8xi1>) -> tensor<i1>
  return
}

// -----

func.func @reduce_kind(%t: tensor<8xf32>) {
  // expected-error@+1 {{'"mean"' does not satisfy the constraint}}
  %c = "tile.reduce"(%t) {dim = 0 : i64, kind = "mean", unsigned = false} : (tensor<8xf32>) -> tensor<f32>
  return
}

// -----

func.func @scan_type(%t: tensor<8xf32>) {
  // expected-error@+1 {{a scan keeps the tile's type}}
  %c = "tile.scan"(%t) {dim = 0 : i64, kind = "sum", reverse = true, unsigned = false} : (tensor<8xf32>) -> tensor<8xf16>
  return
}

// -----

func.func @mma_shapes(%a: tensor<32x16xbf16>, %b: tensor<32x16xbf16>, %c: tensor<32x16xf32>) {
  // expected-error@+1 {{mma needs a: MxK, b: KxN, acc: MxN; got [32, 16], [32, 16], [32, 16]}}
  %d = "tile.mma"(%a, %b, %c) : (tensor<32x16xbf16>, tensor<32x16xbf16>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @mma_types(%a: tensor<32x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<32x16xbf16>) {
  // expected-error@+1 {{mma does not take bf16 x bf16 -> bf16}}
  %d = "tile.mma"(%a, %b, %c) : (tensor<32x16xbf16>, tensor<16x16xbf16>, tensor<32x16xbf16>) -> tensor<32x16xbf16>
  return
}

// -----

func.func @mma_fp8_k(%a: tensor<32x16xf8E4M3FN>, %b: tensor<16x16xf8E4M3FN>, %c: tensor<32x16xf32>) {
  // expected-error@+1 {{an fp8 mma needs K a multiple of 32 (the Tensor Cores' fp8 step); got K = 16}}
  %d = "tile.mma"(%a, %b, %c) : (tensor<32x16xf8E4M3FN>, tensor<16x16xf8E4M3FN>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @mma_fp8_mixed(%a: tensor<32x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %c: tensor<32x16xf32>) {
  // expected-error@+1 {{mma does not take f8E4M3FN x f8E5M2 -> f32}}
  %d = "tile.mma"(%a, %b, %c) : (tensor<32x32xf8E4M3FN>, tensor<32x16xf8E5M2>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @mma_tf32_on_f16(%a: tensor<32x16xf16>, %b: tensor<16x16xf16>, %c: tensor<32x16xf32>) {
  // expected-error@+1 {{tile.tf32 belongs on an mma of f32 tiles (it asks for tf32 products)}}
  %d = "tile.mma"(%a, %b, %c) {tile.tf32} : (tensor<32x16xf16>, tensor<16x16xf16>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @tf32_off_mma(%a: tensor<32x16xf32>) {
  // expected-error@+1 {{tile.tf32 belongs on an mma of f32 tiles (it asks for tf32 products)}}
  %d = arith.negf %a {tile.tf32} : tensor<32x16xf32>
  return
}

// -----

func.func @mma_tf32_not_unit(%a: tensor<32x16xf32>, %b: tensor<16x16xf32>, %c: tensor<32x16xf32>) {
  // expected-error@+1 {{tile.tf32 is a unit attribute, got 1 : i32}}
  %d = "tile.mma"(%a, %b, %c) {tile.tf32 = 1 : i32} : (tensor<32x16xf32>, tensor<16x16xf32>, tensor<32x16xf32>) -> tensor<32x16xf32>
  return
}

// -----

func.func @atomic_mask(%p: !tile.ptr<i32>, %o: tensor<8xi32>, %v: tensor<8xi32>, %m: tensor<8xi32>) {
  // expected-error@+1 {{the atomic mask must be an i1 tile}}
  %d = "tile.atomic_rmw"(%p, %o, %v, %m) {kind = "add"} : (!tile.ptr<i32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return
}

// -----

func.func @atomic_elem(%p: !tile.ptr<f32>, %o: tensor<8xi32>, %v: tensor<8xi32>, %m: tensor<8xi1>) {
  // expected-error@+1 {{values of type i32 into a *mut f32}}
  %d = "tile.atomic_rmw"(%p, %o, %v, %m) {kind = "add"} : (!tile.ptr<f32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi1>) -> tensor<8xi32>
  return
}

// -----

func.func @dim_axis(%v: !tile.view<f32, array<i64: -1>>) {
  // expected-error@+1 {{axis 1 is out of range for a rank-1 tensor}}
  %d = "tile.dim"(%v) {axis = 1 : i64} : (!tile.view<f32, array<i64: -1>>) -> i32
  return
}

// -----

func.func @block_axis() {
  // expected-error@+1 {{'"w"' does not satisfy the constraint}}
  %d = "tile.block_id"() {axis = "w"} : () -> i32
  return
}

// -----

// expected-error@+1 {{tile.warps belongs on a tile kernel (gpu.func)}}
func.func @warps_on_func() attributes {tile.warps = 4 : i32} {
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error@+1 {{tile.warps must be a power of two from 1 to 32, got 6 : i32}}
    gpu.func @k() kernel attributes {tile.warps = 6 : i32} {
      gpu.return
    }
  }
}
