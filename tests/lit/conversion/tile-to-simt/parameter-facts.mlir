// Lowered tile kernels tell LLVM what the runtime guarantees: an input view's pointer is noalias and
// readonly (its loads become ld.global.nc), an output's pointer noalias. A kernel with a raw pointer gets no
// facts (nothing checks what a `*mut T` overlaps).
// RUN: %oxide-opt %s --split-input-file --pass-pipeline='builtin.module(tile-to-simt)' | FileCheck %s
// RUN: %oxide-opt %s --split-input-file --emit=ptx | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @copy(
// CHECK-SAME: %arg0: !simt.ptr<f32, 1 : i64> {llvm.noalias}, %arg1: i64, %arg2: i64,
// CHECK-SAME: %arg3: !simt.ptr<f32, 1 : i64> {llvm.noalias, llvm.readonly}, %arg4: i64, %arg5: i64)
// PTX-LABEL: .entry copy(
// PTX: ld.global.nc.v4.b32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%z: !tile.view_mut<f32, array<i64: 512>>, %x: !tile.view<f32, array<i64: -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %px = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 512>>
      %t = "tile.load"(%px, %bid) : (!tile.partition<f32, array<i64: 512>>, i32) -> tensor<512xf32>
      "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 512>>, tensor<512xf32>) -> ()
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: gpu.func @with_pointer(
// CHECK-NOT: llvm.noalias
// CHECK-SAME: kernel
// PTX-LABEL: .entry with_pointer(
// PTX-NOT: ld.global.nc
// PTX: ret;
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @with_pointer(%z: !tile.view_mut<i32, array<i64: 128>>, %x: !tile.view<i32, array<i64: -1>>, %p: !tile.ptr<i32>) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %px = "tile.make_partition"(%x) : (!tile.view<i32, array<i64: -1>>) -> !tile.partition<i32, array<i64: 128>>
      %t = "tile.load"(%px, %bid) : (!tile.partition<i32, array<i64: 128>>, i32) -> tensor<128xi32>
      %one = arith.constant dense<1> : tensor<128xi32>
      %all = arith.constant dense<true> : tensor<128xi1>
      %old = "tile.atomic_rmw"(%p, %t, %one, %all) {kind = "add"} : (!tile.ptr<i32>, tensor<128xi32>, tensor<128xi32>, tensor<128xi1>) -> tensor<128xi32>
      "tile.store_own"(%z, %old) : (!tile.view_mut<i32, array<i64: 128>>, tensor<128xi32>) -> ()
      gpu.return
    }
  }
}
