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
