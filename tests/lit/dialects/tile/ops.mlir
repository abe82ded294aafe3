// RUN: %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify)' | FileCheck %s
// Every tile op parses, verifies and prints back; elementwise work is upstream arith/math on tiles.

// CHECK-LABEL: gpu.func @everything
// CHECK-SAME: !tile.view_mut<f32, array<i64: 64, 32>>
// CHECK-SAME: !tile.view<f32, array<i64: -1, -1>>
// CHECK-SAME: tile.warps = 8 : i32
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @everything(%z: !tile.view_mut<f32, array<i64: 64, 32>>, %x: !tile.view<f32, array<i64: -1, -1>>,
                         %w: !tile.view<bf16, array<i64: -1, 16>>, %p: !tile.ptr<i32>, %eps: f32) kernel
        attributes {tile.warps = 8 : i32} {
      // CHECK: "tile.block_id"() {axis = "x"} : () -> i32
      %bx = "tile.block_id"() {axis = "x"} : () -> i32
      // CHECK: "tile.num_blocks"() {axis = "y"} : () -> i32
      %ny = "tile.num_blocks"() {axis = "y"} : () -> i32
      // CHECK: "tile.dim"(%{{.*}}) {axis = 1 : i64}
      %d1 = "tile.dim"(%x) {axis = 1 : i64} : (!tile.view<f32, array<i64: -1, -1>>) -> i32
      // CHECK: "tile.make_partition"
      %px = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 64, 32>>
      // CHECK: "tile.num_tiles"
      %nt = "tile.num_tiles"(%px) {axis = 0 : i64} : (!tile.partition<f32, array<i64: 64, 32>>) -> i32
      // CHECK: "tile.load"({{.*}}) : (!tile.partition<f32, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf32>
      %a = "tile.load"(%px, %bx, %ny) : (!tile.partition<f32, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf32>
      // CHECK: "tile.load_own"
      %own = "tile.load_own"(%z) : (!tile.view_mut<f32, array<i64: 64, 32>>) -> tensor<64x32xf32>
      %sum = arith.addf %a, %own : tensor<64x32xf32>
      %e = math.exp %sum : tensor<64x32xf32>
      // CHECK: "tile.splat"
      %s = "tile.splat"(%eps) : (f32) -> tensor<64x32xf32>
      %m = arith.maximumf %e, %s : tensor<64x32xf32>
      // CHECK: "tile.reduce"({{.*}}) {dim = 1 : i64, kind = "max", unsigned = false} : (tensor<64x32xf32>) -> tensor<64xf32>
      %r = "tile.reduce"(%m) {dim = 1 : i64, kind = "max", unsigned = false} : (tensor<64x32xf32>) -> tensor<64xf32>
      // CHECK: "tile.reshape"
      %r2 = "tile.reshape"(%r) : (tensor<64xf32>) -> tensor<64x1xf32>
      // CHECK: "tile.broadcast"
      %rb = "tile.broadcast"(%r2) : (tensor<64x1xf32>) -> tensor<64x32xf32>
      %q = arith.divf %m, %rb : tensor<64x32xf32>
      // CHECK: "tile.scan"({{.*}}) {dim = 0 : i64, kind = "sum", reverse = false, unsigned = false}
      %c = "tile.scan"(%q) {dim = 0 : i64, kind = "sum", reverse = false, unsigned = false} : (tensor<64x32xf32>) -> tensor<64x32xf32>
      // CHECK: "tile.permute"({{.*}}) {perm = array<i64: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
      %t = "tile.permute"(%c) {perm = array<i64: 1, 0>} : (tensor<64x32xf32>) -> tensor<32x64xf32>
      // CHECK: "tile.extract"
      %half = "tile.extract"(%t, %bx, %bx) : (tensor<32x64xf32>, i32, i32) -> tensor<32x32xf32>
      // CHECK: "tile.cat"({{.*}}) {dim = 0 : i64} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
      %both = "tile.cat"(%half, %half) {dim = 0 : i64} : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
      // CHECK: "tile.make_partition_mut"
      %pz = "tile.make_partition_mut"(%z) : (!tile.view_mut<f32, array<i64: 64, 32>>) -> !tile.partition_mut<f32, array<i64: 32, 32>>
      // CHECK: "tile.store"
      "tile.store"(%pz, %half, %bx, %bx) : (!tile.partition_mut<f32, array<i64: 32, 32>>, tensor<32x32xf32>, i32, i32) -> ()
      // CHECK: "tile.store_own"
      "tile.store_own"(%z, %both) : (!tile.view_mut<f32, array<i64: 64, 32>>, tensor<64x32xf32>) -> ()
      // CHECK: "tile.iota"() : () -> tensor<16xi32>
      %i = "tile.iota"() : () -> tensor<16xi32>
      %one = arith.constant dense<1> : tensor<16xi32>
      %mask = arith.cmpi slt, %i, %one : tensor<16xi32>
      // CHECK: "tile.atomic_rmw"({{.*}}) {kind = "add"}
      %old = "tile.atomic_rmw"(%p, %i, %one, %mask) {kind = "add"} : (!tile.ptr<i32>, tensor<16xi32>, tensor<16xi32>, tensor<16xi1>) -> tensor<16xi32>
      // CHECK: "tile.to_scalar"
      %one1 = "tile.extract"(%i, %bx) : (tensor<16xi32>, i32) -> tensor<1xi32>
      %k = "tile.to_scalar"(%one1) : (tensor<1xi32>) -> i32
      %pw = "tile.make_partition"(%w) : (!tile.view<bf16, array<i64: -1, 16>>) -> !tile.partition<bf16, array<i64: 64, 16>>
      %wa = "tile.load"(%pw, %bx, %bx) : (!tile.partition<bf16, array<i64: 64, 16>>, i32, i32) -> tensor<64x16xbf16>
      %wb = "tile.load"(%pw, %k, %bx) : (!tile.partition<bf16, array<i64: 64, 16>>, i32, i32) -> tensor<64x16xbf16>
      %wbt = "tile.permute"(%wb) {perm = array<i64: 1, 0>} : (tensor<64x16xbf16>) -> tensor<16x64xbf16>
      %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
      // CHECK: "tile.mma"({{.*}}) : (tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %acc = "tile.mma"(%wa, %wbt, %acc0) : (tensor<64x16xbf16>, tensor<16x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %fa = arith.extf %wa : tensor<64x16xbf16> to tensor<64x16xf32>
      %fb = arith.extf %wbt : tensor<16x64xbf16> to tensor<16x64xf32>
      // CHECK: "tile.mma"({{.*}}) {tile.tf32} : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      %tacc = "tile.mma"(%fa, %fb, %acc0) {tile.tf32} : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
      gpu.return
    }
  }
}
