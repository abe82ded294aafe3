// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s
// Every atomic op parses, verifies and prints back, on i32/i64/f32/f64 elements in global (1), shared (3)
// and generic (0) memory, at every scope and ordering it accepts.

// CHECK-LABEL: func.func @loads_and_stores
func.func @loads_and_stores(%g: !simt.ptr<i32, 1>, %s: !simt.ptr<f64, 3>, %p: !simt.ptr<i64, 0>, %f: !simt.ptr<f32, 1>,
                            %x: i32, %y: f64) {
  // CHECK: "simt.atomic_load"(%{{.*}}) {ordering = "relaxed", scope = "device"} : (!simt.ptr<i32, 1 : i64>) -> i32
  %0 = "simt.atomic_load"(%g) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>) -> i32
  // CHECK: "simt.atomic_load"(%{{.*}}) {ordering = "acquire", scope = "block"} : (!simt.ptr<f64, 3 : i64>) -> f64
  %1 = "simt.atomic_load"(%s) {scope = "block", ordering = "acquire"} : (!simt.ptr<f64, 3>) -> f64
  // CHECK: "simt.atomic_load"(%{{.*}}) {ordering = "seq_cst", scope = "system"} : (!simt.ptr<i64, 0 : i64>) -> i64
  %2 = "simt.atomic_load"(%p) {scope = "system", ordering = "seq_cst"} : (!simt.ptr<i64, 0>) -> i64
  // CHECK: "simt.atomic_load"(%{{.*}}) {ordering = "relaxed", scope = "device"} : (!simt.ptr<f32, 1 : i64>) -> f32
  %3 = "simt.atomic_load"(%f) {scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>) -> f32
  // CHECK: "simt.atomic_store"(%{{.*}}, %{{.*}}) {ordering = "release", scope = "device"} : (!simt.ptr<i32, 1 : i64>, i32) -> ()
  "simt.atomic_store"(%g, %x) {scope = "device", ordering = "release"} : (!simt.ptr<i32, 1>, i32) -> ()
  // CHECK: "simt.atomic_store"(%{{.*}}, %{{.*}}) {ordering = "relaxed", scope = "block"} : (!simt.ptr<f64, 3 : i64>, f64) -> ()
  "simt.atomic_store"(%s, %y) {scope = "block", ordering = "relaxed"} : (!simt.ptr<f64, 3>, f64) -> ()
  // CHECK: "simt.atomic_store"(%{{.*}}, %{{.*}}) {ordering = "seq_cst", scope = "system"} : (!simt.ptr<i64, 0 : i64>, i64) -> ()
  "simt.atomic_store"(%p, %2) {scope = "system", ordering = "seq_cst"} : (!simt.ptr<i64, 0>, i64) -> ()
  return
}

// CHECK-LABEL: func.func @integer_rmw
func.func @integer_rmw(%g: !simt.ptr<i32, 1>, %s: !simt.ptr<i64, 3>, %x: i32, %y: i64) {
  // CHECK: "simt.atomic_rmw"(%{{.*}}, %{{.*}}) {kind = "add", ordering = "relaxed", scope = "device"} : (!simt.ptr<i32, 1 : i64>, i32) -> i32
  %0 = "simt.atomic_rmw"(%g, %x) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
  // CHECK: "simt.atomic_rmw"(%{{.*}}, %{{.*}}) {kind = "sub", ordering = "acq_rel", scope = "system"} : (!simt.ptr<i32, 1 : i64>, i32) -> i32
  %1 = "simt.atomic_rmw"(%g, %x) {kind = "sub", scope = "system", ordering = "acq_rel"} : (!simt.ptr<i32, 1>, i32) -> i32
  // CHECK: {kind = "and", ordering = "acquire", scope = "block"} : (!simt.ptr<i64, 3 : i64>, i64) -> i64
  %2 = "simt.atomic_rmw"(%s, %y) {kind = "and", scope = "block", ordering = "acquire"} : (!simt.ptr<i64, 3>, i64) -> i64
  // CHECK: {kind = "or", ordering = "release", scope = "block"}
  %3 = "simt.atomic_rmw"(%s, %y) {kind = "or", scope = "block", ordering = "release"} : (!simt.ptr<i64, 3>, i64) -> i64
  // CHECK: {kind = "xor", ordering = "seq_cst", scope = "device"}
  %4 = "simt.atomic_rmw"(%g, %x) {kind = "xor", scope = "device", ordering = "seq_cst"} : (!simt.ptr<i32, 1>, i32) -> i32
  // CHECK: {kind = "min", ordering = "relaxed", scope = "device"}
  %5 = "simt.atomic_rmw"(%g, %x) {kind = "min", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
  // CHECK: {kind = "max", ordering = "relaxed", scope = "device"}
  %6 = "simt.atomic_rmw"(%g, %x) {kind = "max", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
  // CHECK: {kind = "umin", ordering = "relaxed", scope = "device"} : (!simt.ptr<i64, 3 : i64>, i64) -> i64
  %7 = "simt.atomic_rmw"(%s, %y) {kind = "umin", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 3>, i64) -> i64
  // CHECK: {kind = "umax", ordering = "relaxed", scope = "device"}
  %8 = "simt.atomic_rmw"(%s, %y) {kind = "umax", scope = "device", ordering = "relaxed"} : (!simt.ptr<i64, 3>, i64) -> i64
  // CHECK: {kind = "xchg", ordering = "acq_rel", scope = "device"} : (!simt.ptr<i32, 1 : i64>, i32) -> i32
  %9 = "simt.atomic_rmw"(%g, %x) {kind = "xchg", scope = "device", ordering = "acq_rel"} : (!simt.ptr<i32, 1>, i32) -> i32
  return
}

// CHECK-LABEL: func.func @float_rmw
func.func @float_rmw(%f: !simt.ptr<f32, 1>, %d: !simt.ptr<f64, 0>, %x: f32, %y: f64) {
  // CHECK: "simt.atomic_rmw"(%{{.*}}, %{{.*}}) {kind = "fadd", ordering = "relaxed", scope = "device"} : (!simt.ptr<f32, 1 : i64>, f32) -> f32
  %0 = "simt.atomic_rmw"(%f, %x) {kind = "fadd", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
  // CHECK: {kind = "fsub", ordering = "release", scope = "system"} : (!simt.ptr<f64, 0 : i64>, f64) -> f64
  %1 = "simt.atomic_rmw"(%d, %y) {kind = "fsub", scope = "system", ordering = "release"} : (!simt.ptr<f64, 0>, f64) -> f64
  // CHECK: {kind = "xchg", ordering = "relaxed", scope = "block"} : (!simt.ptr<f32, 1 : i64>, f32) -> f32
  %2 = "simt.atomic_rmw"(%f, %x) {kind = "xchg", scope = "block", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
  return
}

// CHECK-LABEL: func.func @compare_exchange
func.func @compare_exchange(%g: !simt.ptr<i32, 1>, %s: !simt.ptr<i64, 3>, %a: i32, %b: i32, %c: i64) {
  // CHECK: "simt.atomic_cmpxchg"(%{{.*}}, %{{.*}}, %{{.*}}) {failure_ordering = "acquire", scope = "device", success_ordering = "acq_rel"} : (!simt.ptr<i32, 1 : i64>, i32, i32) -> (i32, i1)
  %old, %ok = "simt.atomic_cmpxchg"(%g, %a, %b) {scope = "device", success_ordering = "acq_rel", failure_ordering = "acquire"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
  // A failure ordering stronger than the success ordering is fine (as in Rust since 1.64).
  // CHECK: {failure_ordering = "seq_cst", scope = "block", success_ordering = "relaxed"} : (!simt.ptr<i64, 3 : i64>, i64, i64) -> (i64, i1)
  %old2, %ok2 = "simt.atomic_cmpxchg"(%s, %c, %c) {scope = "block", success_ordering = "relaxed", failure_ordering = "seq_cst"} : (!simt.ptr<i64, 3>, i64, i64) -> (i64, i1)
  // CHECK: {failure_ordering = "relaxed", scope = "system", success_ordering = "release"}
  %old3, %ok3 = "simt.atomic_cmpxchg"(%g, %a, %b) {scope = "system", success_ordering = "release", failure_ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
  return
}
