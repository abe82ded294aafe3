// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @coordinates
func.func @coordinates() -> (i32, i32, i32, i32) {
  // CHECK: "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
  %0 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
  // CHECK: "simt.block_id"() {dim = #simt.dim<"y">} : () -> i32
  %1 = "simt.block_id"() {dim = #simt.dim<"y">} : () -> i32
  // CHECK: "simt.block_dim"() {dim = #simt.dim<"z">} : () -> i32
  %2 = "simt.block_dim"() {dim = #simt.dim<"z">} : () -> i32
  // CHECK: "simt.grid_dim"() {dim = #simt.dim<"x">} : () -> i32
  %3 = "simt.grid_dim"() {dim = #simt.dim<"x">} : () -> i32
  return %0, %1, %2, %3 : i32, i32, i32, i32
}

// CHECK-LABEL: func.func @registers
func.func @registers() {
  // CHECK: "simt.special_reg"() {reg = "laneid"} : () -> i32
  %0 = "simt.special_reg"() {reg = "laneid"} : () -> i32
  // CHECK: "simt.special_reg"() {reg = "warpid"} : () -> i32
  %1 = "simt.special_reg"() {reg = "warpid"} : () -> i32
  // CHECK: "simt.special_reg"() {reg = "lanemask_lt"} : () -> i32
  %2 = "simt.special_reg"() {reg = "lanemask_lt"} : () -> i32
  // CHECK: "simt.special_reg"() {reg = "clock64"} : () -> i64
  %3 = "simt.special_reg"() {reg = "clock64"} : () -> i64
  // CHECK: "simt.special_reg"() {reg = "globaltimer"} : () -> i64
  %4 = "simt.special_reg"() {reg = "globaltimer"} : () -> i64
  return
}

// CHECK-LABEL: func.func @witnesses
func.func @witnesses() {
  // CHECK: %[[A:.*]] = "simt.index_1d"() : () -> !simt.thread_index<"1d">
  %a = "simt.index_1d"() : () -> !simt.thread_index<"1d">
  // CHECK: "simt.index_1d_u32"() : () -> !simt.thread_index<"1d">
  %b = "simt.index_1d_u32"() : () -> !simt.thread_index<"1d">
  // CHECK: "simt.index_2d"() : () -> !simt.thread_index<"2d:256">
  %c = "simt.index_2d"() : () -> !simt.thread_index<"2d:256">
  // CHECK: %[[R:.*]] = "simt.index_2d_runtime"() : () -> !simt.thread_index<"runtime_2d">
  %d = "simt.index_2d_runtime"() : () -> !simt.thread_index<"runtime_2d">
  // CHECK: "simt.warp_index"() : () -> !simt.thread_index<"warp">
  %e = "simt.warp_index"() : () -> !simt.thread_index<"warp">
  // CHECK: "simt.index_value"(%[[A]]) : (!simt.thread_index<"1d">) -> index
  %v = "simt.index_value"(%a) : (!simt.thread_index<"1d">) -> index
  // CHECK: "simt.index_valid"(%[[A]]) : (!simt.thread_index<"1d">) -> i1
  %ok = "simt.index_valid"(%a) : (!simt.thread_index<"1d">) -> i1
  // CHECK: "simt.index_row"(%[[R]])
  %row = "simt.index_row"(%d) : (!simt.thread_index<"runtime_2d">) -> index
  // CHECK: "simt.index_col"(%[[R]])
  %col = "simt.index_col"(%d) : (!simt.thread_index<"runtime_2d">) -> index
  return
}
