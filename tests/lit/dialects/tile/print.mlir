// RUN: %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify)' | FileCheck %s
// tile.print: a C format and its widened arguments, grouped by type; `order` gives the format order.

// CHECK-LABEL: gpu.func @hello
// CHECK: "tile.print"(%{{.*}}, %{{.*}}, %{{.*}}) {format = "tile %d x=%g n=%lld\0A", operandSegmentSizes = array<i32: 1, 1, 1>, order = "idl"} : (i32, i64, f64) -> ()
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello(%x: f32) kernel attributes {tile.warps = 4 : i32} {
      %b = "tile.block_id"() {axis = "x"} : () -> i32
      %xd = arith.extf %x : f32 to f64
      %n = arith.constant 7 : i64
      "tile.print"(%b, %n, %xd) {format = "tile %d x=%g n=%lld\0A", operandSegmentSizes = array<i32: 1, 1, 1>, order = "idl"} : (i32, i64, f64) -> ()
      gpu.return
    }
  }
}
