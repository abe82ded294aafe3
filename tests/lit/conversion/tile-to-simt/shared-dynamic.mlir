// Shared memory past the 48 KiB a block may declare statically moves into the launch's dynamic shared memory
// (planned against the chip's opt-in limit), and the kernel records how much each launch must pass.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A 128x128 f32 transpose converts through 64 KiB of scratch: no static array, one dynamic one at offset 0.
    // CHECK-LABEL: gpu.func @transpose(
    // CHECK-SAME: tile.dynamic_shared = 65536 : i64
    // CHECK-NOT: simt.shared_array
    // CHECK: "simt.dynamic_shared"(%{{.*}}) {align = 16 : i64} : (index) -> !simt.ptr<f32, 3 : i64>
    // CHECK-NOT: simt.shared_array
    // CHECK: gpu.return
    gpu.func @transpose(%z: !tile.view_mut<f32, array<i64: 128, 128>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 128, 128>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<f32, array<i64: 128, 128>>, i32, i32) -> tensor<128x128xf32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<128x128xf32>) -> tensor<128x128xf32>
      "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 128, 128>>, tensor<128x128xf32>) -> ()
      gpu.return
    }

    // 32 KiB of scratch stays a static array, and the kernel needs no dynamic shared memory.
    // CHECK-LABEL: gpu.func @small(
    // CHECK-NOT: tile.dynamic_shared
    // CHECK: simt.shared_array{{.*}}!simt.shared<f32, 8192 : i64>
    // CHECK-NOT: simt.dynamic_shared
    // CHECK: gpu.return
    gpu.func @small(%z: !tile.view_mut<f32, array<i64: 64, 128>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 128, 64>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<f32, array<i64: 128, 64>>, i32, i32) -> tensor<128x64xf32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<128x64xf32>) -> tensor<64x128xf32>
      "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 64, 128>>, tensor<64x128xf32>) -> ()
      gpu.return
    }
  }
}
