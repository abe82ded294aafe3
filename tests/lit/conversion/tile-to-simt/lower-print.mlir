// tile.print: thread 0 of the tile block calls vprintf once (simt.printf), with the same format and order.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s
// RUN: %oxide-opt %s --emit=ptx --chip sm_90 | FileCheck %s --check-prefix=PTX

// CHECK-LABEL: gpu.func @hello
// CHECK: %[[TID:.*]] = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK-NEXT: "simt.printf"(%{{.*}}, %{{.*}}) {format = "tile %d of %g\0A", operandSegmentSizes = array<i32: 1, 0, 1>, order = "id"}
// CHECK-NOT: tile.print
// PTX: .extern .func (.param .b32 func_retval0) vprintf
// PTX: call.uni (retval0), vprintf
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @hello(%x: f32) kernel attributes {tile.warps = 4 : i32} {
      %b = "tile.block_id"() {axis = "x"} : () -> i32
      %xd = arith.extf %x : f32 to f64
      "tile.print"(%b, %xd) {format = "tile %d of %g\0A", operandSegmentSizes = array<i32: 1, 0, 1>, order = "id"} : (i32, f64) -> ()
      gpu.return
    }
  }
}
