// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @indices
func.func @indices() -> (index, index, index, index) {
  // CHECK: "simt.thread_id"() {dim = #simt.dim<"x">} : () -> index
  %0 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> index
  // CHECK: "simt.block_id"() {dim = #simt.dim<"y">} : () -> index
  %1 = "simt.block_id"() {dim = #simt.dim<"y">} : () -> index
  // CHECK: "simt.block_dim"() {dim = #simt.dim<"z">} : () -> index
  %2 = "simt.block_dim"() {dim = #simt.dim<"z">} : () -> index
  // CHECK: "simt.grid_dim"() {dim = #simt.dim<"x">} : () -> index
  %3 = "simt.grid_dim"() {dim = #simt.dim<"x">} : () -> index
  return %0, %1, %2, %3 : index, index, index, index
}

// CHECK-LABEL: func.func @slices
// CHECK-SAME: !simt.slice<f32>, %{{.*}}: !simt.slice_mut<i64>, %{{.*}}: !simt.disjoint<f32>
func.func @slices(%a: !simt.slice<f32>, %m: !simt.slice_mut<i64>, %d: !simt.disjoint<f32>, %i: index) {
  // CHECK: "simt.len"(%{{.*}}) : (!simt.slice<f32>) -> index
  %n = "simt.len"(%a) : (!simt.slice<f32>) -> index
  // CHECK: "simt.len"(%{{.*}}) : (!simt.disjoint<f32>) -> index
  %nd = "simt.len"(%d) : (!simt.disjoint<f32>) -> index
  // CHECK: "simt.load"(%{{.*}}, %{{.*}}) : (!simt.slice<f32>, index) -> f32
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> f32
  // CHECK: "simt.load"(%{{.*}}, %{{.*}}) : (!simt.slice_mut<i64>, index) -> i64
  %y = "simt.load"(%m, %i) : (!simt.slice_mut<i64>, index) -> i64
  // CHECK: %[[W:.*]] = "simt.index_1d"() : () -> !simt.thread_index
  %w = "simt.index_1d"() : () -> !simt.thread_index
  // CHECK: "simt.index_value"(%[[W]]) : (!simt.thread_index) -> index
  %v = "simt.index_value"(%w) : (!simt.thread_index) -> index
  // CHECK: "simt.disjoint_store"(%{{.*}}, %[[W]], %{{.*}}) : (!simt.disjoint<f32>, !simt.thread_index, f32) -> ()
  "simt.disjoint_store"(%d, %w, %x) : (!simt.disjoint<f32>, !simt.thread_index, f32) -> ()
  return
}

// CHECK-LABEL: func.func @shared
func.func @shared() {
  // CHECK: "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 256 : i64>
  %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 256 : i64>
  return
}
