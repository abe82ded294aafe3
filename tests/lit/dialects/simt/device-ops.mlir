// The device-API ops parse, verify and print.
// RUN: %oxide-opt %s | FileCheck %s

// CHECK-LABEL: func.func @ops
func.func @ops(%p: !simt.ptr<f32, 3>, %a: i64, %x: i32) {
  // CHECK: "simt.ptr_to_int"(%{{.*}}) : (!simt.ptr<f32, 3 : i64>) -> i64
  %0 = "simt.ptr_to_int"(%p) : (!simt.ptr<f32, 3>) -> i64
  // CHECK: "simt.int_to_ptr"(%{{.*}}) : (i64) -> !simt.ptr<f32, 0 : i64>
  %1 = "simt.int_to_ptr"(%a) : (i64) -> !simt.ptr<f32, 0>
  // CHECK: "simt.constant_addr"() {symbol = "X"} : () -> !simt.ptr<i32, 4 : i64>
  %2 = "simt.constant_addr"() {symbol = "X"} : () -> !simt.ptr<i32, 4>
  // CHECK: "simt.inline_ptx"(%{{.*}}, %{{.*}}) {asm = "add.u32 $0, $1, $2;", constraints = "=r,r,r", operandSegmentSizes
  %3 = "simt.inline_ptx"(%x, %x) {asm = "add.u32 $0, $1, $2;", constraints = "=r,r,r", operandSegmentSizes = array<i32: 1, 1, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>} : (i32, i32) -> i32
  return
}
