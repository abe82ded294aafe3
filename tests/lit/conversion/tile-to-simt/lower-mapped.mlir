// convert-tile-to-simt on a mapped partition (MappedPartitionMut): the parameter has a view's ABI (pointer,
// extents, strides; noalias), the work-item arithmetic is scalar i64 math on the extents, and the store is
// an ordinary tile store at index * tile shape (vector path inside the tensor, masked at its edge).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s
// The PTX assembles for sm_90.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' --emit=ptx -o %t.ptx
// RUN: %if ptxas %{ ptxas -arch=sm_90 %t.ptx -o %t.cubin %}
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: st.global.v2.b32

// CHECK-LABEL: gpu.func @fill(
// CHECK-SAME: %{{.*}}: !simt.ptr<f32, 1 : i64> {llvm.noalias}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-SAME: simt.contract = {block = array<i32: 128, 1, 1>, domain = 1 : i32}
// CHECK: "simt.block_id"
// CHECK: "simt.grid_dim"
// CHECK: arith.divui
// CHECK: scf.for
// CHECK: arith.minui
// CHECK: scf.for
// CHECK: arith.remui
// CHECK: "simt.ptr_store"
// CHECK-NOT: tile.
module attributes {gpu.container_module} {
gpu.module @kernels {
  gpu.func @fill(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 1>>) kernel attributes {tile.warps = 4 : i32} {
    %b = "tile.block_id"() {axis = "x"} : () -> i32
    %nb = "tile.num_blocks"() {axis = "x"} : () -> i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %w = "tile.mapped_work"(%z) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 1>>) -> i32
    scf.for %item = %b to %w step %nb : i32 {
      %n = "tile.mapped_item_tiles"(%z, %item) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 1>>, i32) -> i32
      scf.for %t = %c0 to %n step %c1 : i32 {
        %i = "tile.mapped_index"(%z, %item, %t) {axis = 0} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 1>>, i32, i32) -> i32
        %j = "tile.mapped_index"(%z, %item, %t) {axis = 1} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 1>>, i32, i32) -> i32
        %c = arith.constant dense<1.0> : tensor<16x16xf32>
        "tile.mapped_store"(%z, %c, %i, %j) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 1>>, tensor<16x16xf32>, i32, i32) -> ()
      }
    }
    gpu.return
  }
}
}
