// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @assert_and_trap
func.func @assert_and_trap(%ok: i1) {
  // CHECK: "simt.assert"(%{{.*}}) {message = "assertion failed: x > 0"} : (i1) -> ()
  "simt.assert"(%ok) {message = "assertion failed: x > 0"} : (i1) -> ()
  // CHECK: "simt.trap"() : () -> ()
  "simt.trap"() : () -> ()
  return
}

// CHECK-LABEL: func.func @printf
func.func @printf(%a: i32, %b: i64, %x: f64) -> i32 {
  // The arguments are grouped by type (i32, i64, f64); `order` gives the format order.
  // CHECK: %{{.*}} = "simt.printf"(%{{.*}}, %{{.*}}, %{{.*}}) {format = "%d %.2f %ld\0A", operandSegmentSizes = array<i32: 1, 1, 1>, order = "idl"} : (i32, i64, f64) -> i32
  %n = "simt.printf"(%a, %b, %x) {format = "%d %.2f %ld\0A", operandSegmentSizes = array<i32: 1, 1, 1>, order = "idl"} : (i32, i64, f64) -> i32
  return %n : i32
}

