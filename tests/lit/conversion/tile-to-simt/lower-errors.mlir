// What convert-tile-to-simt cannot lower is a located error, never skipped or a crash.
// RUN: not %oxide-opt %s --split-input-file --pass-pipeline='builtin.module(convert-tile-to-simt)' 2>&1 | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @dense(%z: !tile.view_mut<f32, array<i64: 2>>) kernel attributes {tile.warps = 1 : i32} {
      // CHECK: lower-errors.mlir:[[# @LINE + 1]]:12: error: only splat tile constants (`dense<c>`) are supported
      %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
      "tile.store_own"(%z, %c) : (!tile.view_mut<f32, array<i64: 2>>, tensor<2xf32>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @outside(%z: !tile.view_mut<f32, array<i64: 64>>) kernel attributes {tile.warps = 1 : i32} {
      %q = "tile.make_partition_mut"(%z) : (!tile.view_mut<f32, array<i64: 64>>) -> !tile.partition_mut<f32, array<i64: 16>>
      %one = arith.constant 1.0 : f32
      %t = "tile.splat"(%one) : (f32) -> tensor<16xf32>
      %c4 = arith.constant 4 : i32
      // CHECK: lower-errors.mlir:[[# @LINE + 1]]:7: error: tile index 4 along dimension 0 is outside this block's own sub-grid of 4 tiles
      "tile.store"(%q, %t, %c4) : (!tile.partition_mut<f32, array<i64: 16>>, tensor<16xf32>, i32) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @region(%z: !tile.view_mut<f32, array<i64: 32>>) kernel attributes {tile.warps = 1 : i32} {
      // CHECK: lower-errors.mlir:[[# @LINE + 1]]:12: error: 'scf.execute_region' has no lowering from the tile dialect
      %t = scf.execute_region -> tensor<32xf32> {
        %c = arith.constant dense<1.0> : tensor<32xf32>
        scf.yield %c : tensor<32xf32>
      }
      "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 32>>, tensor<32xf32>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: lower-errors.mlir:[[# @LINE + 1]]:5: error: a kernel parameter of type !tile.partition<f32, array<i64: 16>> is not part of the tile kernel ABI
    gpu.func @param(%p: !tile.partition<f32, array<i64: 16>>) kernel attributes {tile.warps = 1 : i32} {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fmax(%out: !tile.ptr<f32>) kernel attributes {tile.warps = 1 : i32} {
      %i = "tile.iota"() : () -> tensor<32xi32>
      %v = arith.constant dense<1.0> : tensor<32xf32>
      %m = arith.constant dense<true> : tensor<32xi1>
      // CHECK: lower-errors.mlir:[[# @LINE + 1]]:12: error: atomic max on f32 is not supported (floats take add and xchg; f16, f32, f64)
      %o = "tile.atomic_rmw"(%out, %i, %v, %m) {kind = "max"} : (!tile.ptr<f32>, tensor<32xi32>, tensor<32xf32>, tensor<32xi1>) -> tensor<32xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: lower-errors.mlir:[[# @LINE + 1]]:5: error: a helper function taking tiles, views or partitions cannot be lowered: only tile kernels (`kernel` functions) take tile types; inline the helper into the kernel
    func.func private @helper(%t: tensor<16xf32>) -> tensor<16xf32> {
      return %t : tensor<16xf32>
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @carried_view(%z: !tile.view_mut<f32, array<i64: 32>>, %x: !tile.view<f32, array<i64: -1>>, %c: i1) kernel attributes {tile.warps = 1 : i32} {
      %v = scf.if %c -> (!tile.view<f32, array<i64: -1>>) {
        // CHECK: lower-errors.mlir:[[# @LINE + 1]]:9: error: only tiles and scalars can flow through scf regions (not views or partitions)
        scf.yield %x : !tile.view<f32, array<i64: -1>>
      } else {
        scf.yield %x : !tile.view<f32, array<i64: -1>>
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A 256x256 f32 transpose converts through 256 KiB of shared memory, more than a block of sm_90 has.
    // CHECK: lower-errors.mlir:[[# @LINE + 1]]:5: error: this tile kernel needs 262144 bytes of shared memory for layout conversions, reductions and mma staging, more than the 232448 a block of sm_90 has; use smaller tiles (or fewer conversions between layouts)
    gpu.func @too_big(%z: !tile.view_mut<f32, array<i64: 256, 256>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 256, 256>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<f32, array<i64: 256, 256>>, i32, i32) -> tensor<256x256xf32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<256x256xf32>) -> tensor<256x256xf32>
      "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 256, 256>>, tensor<256x256xf32>) -> ()
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: lower-errors.mlir:[[# @LINE + 1]]:5: error: an output (&mut Tensor) has rank at most 3, one per launch grid axis; this one has rank 4
    gpu.func @rank4(%z: !tile.view_mut<f32, array<i64: 2, 2, 2, 2>>) kernel attributes {tile.warps = 1 : i32} {
      %t = "tile.load_own"(%z) : (!tile.view_mut<f32, array<i64: 2, 2, 2, 2>>) -> tensor<2x2x2x2xf32>
      gpu.return
    }
  }
}
