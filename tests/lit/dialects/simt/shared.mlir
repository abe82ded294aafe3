// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @shared
func.func @shared(%i: index, %v: f32) -> f32 {
  // CHECK: %[[S:.*]] = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 256 : i64>
  %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 256 : i64>
  // CHECK: "simt.shared_store"(%[[S]], %{{.*}}, %{{.*}}) : (!simt.shared<f32, 256 : i64>, index, f32) -> ()
  "simt.shared_store"(%s, %i, %v) : (!simt.shared<f32, 256 : i64>, index, f32) -> ()
  // CHECK: "simt.shared_load"(%[[S]], %{{.*}}) : (!simt.shared<f32, 256 : i64>, index) -> f32
  %x = "simt.shared_load"(%s, %i) : (!simt.shared<f32, 256 : i64>, index) -> f32
  // CHECK: "simt.shared_ptr"(%[[S]]) : (!simt.shared<f32, 256 : i64>) -> !simt.ptr<f32, 3 : i64>
  %p = "simt.shared_ptr"(%s) : (!simt.shared<f32, 256 : i64>) -> !simt.ptr<f32, 3>
  // CHECK: "simt.dynamic_shared"(%{{.*}}) {align = 16 : i64} : (index) -> !simt.ptr<f32, 3 : i64>
  %d = "simt.dynamic_shared"(%i) {align = 16 : i64} : (index) -> !simt.ptr<f32, 3>
  return %x : f32
}
