// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @size_is_4_8_or_16(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 1>) {
  // expected-error@+1 {{a cp.async copies 4, 8 or 16 bytes, not 2}}
  "simt.cp_async"(%d, %s) {bytes = 2 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>) -> ()
  return
}

// -----

func.func @destination_is_shared(%d: !simt.ptr<f16, 1>, %s: !simt.ptr<f16, 1>) {
  // expected-error@+1 {{cp.async copies from global to shared memory: the destination must be a !simt.ptr<_, 3> (shared), not a global pointer}}
  "simt.cp_async"(%d, %s) {bytes = 16 : i64} : (!simt.ptr<f16, 1>, !simt.ptr<f16, 1>) -> ()
  return
}

// -----

func.func @source_is_global(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 0>) {
  // expected-error@+1 {{cp.async copies from global to shared memory: the source must be a !simt.ptr<_, 1> (global), not a generic pointer}}
  "simt.cp_async"(%d, %s) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 0>) -> ()
  return
}

// -----

func.func @whole_elements(%d: !simt.ptr<f64, 3>, %s: !simt.ptr<f64, 1>) {
  // expected-error@+1 {{a cp.async of 4 bytes is not a whole number of f64 elements}}
  "simt.cp_async"(%d, %s) {bytes = 4 : i64} : (!simt.ptr<f64, 3>, !simt.ptr<f64, 1>) -> ()
  return
}

// -----

func.func @constant_src_size_fits(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 1>) {
  %n = arith.constant 24 : i32
  // expected-error@+1 {{cp.async src_size must be 0..16 (the bytes to read of the 16 copied), got 24}}
  "simt.cp_async"(%d, %s, %n) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>, i32) -> ()
  return
}

// -----

func.func @src_size_is_i32(%d: !simt.ptr<f16, 3>, %s: !simt.ptr<f16, 1>, %n: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  "simt.cp_async"(%d, %s, %n) {bytes = 16 : i64} : (!simt.ptr<f16, 3>, !simt.ptr<f16, 1>, i64) -> ()
  return
}

// -----

func.func @pending_is_not_negative() {
  // expected-error@+1 {{the pending group count must be 0..2147483647, got -1}}
  "simt.cp_async_wait_group"() {pending = -1 : i64} : () -> ()
  return
}
