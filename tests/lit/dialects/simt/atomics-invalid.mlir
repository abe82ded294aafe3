// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @load_cannot_release(%p: !simt.ptr<i32, 1>) {
  // expected-error@+1 {{'simt.atomic_load' op an atomic load cannot have release ordering (Rust panics on it); use relaxed, acquire or seq_cst}}
  %x = "simt.atomic_load"(%p) {scope = "device", ordering = "release"} : (!simt.ptr<i32, 1>) -> i32
  return
}

// -----

func.func @load_cannot_acq_rel(%p: !simt.ptr<f64, 3>) {
  // expected-error@+1 {{an atomic load cannot have acq_rel ordering}}
  %x = "simt.atomic_load"(%p) {scope = "block", ordering = "acq_rel"} : (!simt.ptr<f64, 3>) -> f64
  return
}

// -----

func.func @store_cannot_acquire(%p: !simt.ptr<i64, 1>, %v: i64) {
  // expected-error@+1 {{'simt.atomic_store' op an atomic store cannot have acquire ordering (Rust panics on it); use relaxed, release or seq_cst}}
  "simt.atomic_store"(%p, %v) {scope = "device", ordering = "acquire"} : (!simt.ptr<i64, 1>, i64) -> ()
  return
}

// -----

func.func @store_cannot_acq_rel(%p: !simt.ptr<f32, 1>, %v: f32) {
  // expected-error@+1 {{an atomic store cannot have acq_rel ordering}}
  "simt.atomic_store"(%p, %v) {scope = "system", ordering = "acq_rel"} : (!simt.ptr<f32, 1>, f32) -> ()
  return
}

// -----

func.func @integer_kind_on_float(%p: !simt.ptr<f32, 1>, %v: f32) {
  // expected-error@+1 {{'simt.atomic_rmw' op 'add' is an integer operation, but the element type is f32; use fadd}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
  return
}

// -----

func.func @bitwise_kind_on_float(%p: !simt.ptr<f64, 1>, %v: f64) {
  // expected-error@+1 {{'xor' is an integer operation, but the element type is f64}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "xor", scope = "device", ordering = "relaxed"} : (!simt.ptr<f64, 1>, f64) -> f64
  return
}

// -----

func.func @min_on_float(%p: !simt.ptr<f32, 1>, %v: f32) {
  // expected-error@+1 {{'umin' is an integer operation, but the element type is f32}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "umin", scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32) -> f32
  return
}

// -----

func.func @float_kind_on_integer(%p: !simt.ptr<i32, 1>, %v: i32) {
  // expected-error@+1 {{'simt.atomic_rmw' op 'fsub' is a float operation, but the element type is i32; use sub}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "fsub", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
  return
}

// -----

func.func @cmpxchg_failure_cannot_release(%p: !simt.ptr<i32, 1>, %a: i32) {
  // expected-error@+1 {{'simt.atomic_cmpxchg' op a compare-exchange failure cannot have release ordering (Rust panics on it); use relaxed, acquire or seq_cst}}
  %old, %ok = "simt.atomic_cmpxchg"(%p, %a, %a) {scope = "device", success_ordering = "acq_rel", failure_ordering = "release"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i1)
  return
}

// -----

func.func @cmpxchg_failure_cannot_acq_rel(%p: !simt.ptr<i64, 3>, %a: i64) {
  // expected-error@+1 {{a compare-exchange failure cannot have acq_rel ordering}}
  %old, %ok = "simt.atomic_cmpxchg"(%p, %a, %a) {scope = "block", success_ordering = "seq_cst", failure_ordering = "acq_rel"} : (!simt.ptr<i64, 3>, i64, i64) -> (i64, i1)
  return
}

// -----

func.func @cmpxchg_is_integer_only(%p: !simt.ptr<f32, 1>, %a: f32) {
  // expected-error@+1 {{'f32' does not satisfy the constraint}}
  %old, %ok = "simt.atomic_cmpxchg"(%p, %a, %a) {scope = "device", success_ordering = "relaxed", failure_ordering = "relaxed"} : (!simt.ptr<f32, 1>, f32, f32) -> (f32, i1)
  return
}

// -----

func.func @value_must_match_element(%p: !simt.ptr<i32, 1>, %v: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i64) -> i64
  return
}

// -----

func.func @load_result_must_match_element(%p: !simt.ptr<f32, 1>) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %x = "simt.atomic_load"(%p) {scope = "device", ordering = "relaxed"} : (!simt.ptr<f32, 1>) -> i32
  return
}

// -----

func.func @no_narrow_atomics(%p: !simt.ptr<i16, 1>, %v: i16) {
  // expected-error@+1 {{'i16' does not satisfy the constraint}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "add", scope = "device", ordering = "relaxed"} : (!simt.ptr<i16, 1>, i16) -> i16
  return
}

// -----

func.func @no_local_memory_atomics(%p: !simt.ptr<i32, 5>, %v: i32) {
  // expected-error@+1 {{'5 : i64' does not satisfy the constraint}}
  "simt.atomic_store"(%p, %v) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 5>, i32) -> ()
  return
}

// -----

func.func @unknown_scope(%p: !simt.ptr<i32, 1>) {
  // expected-error@+1 {{'"cluster"' does not satisfy the constraint}}
  %x = "simt.atomic_load"(%p) {scope = "cluster", ordering = "relaxed"} : (!simt.ptr<i32, 1>) -> i32
  return
}

// -----

func.func @unknown_ordering(%p: !simt.ptr<i32, 1>, %v: i32) {
  // expected-error@+1 {{'"consume"' does not satisfy the constraint}}
  "simt.atomic_store"(%p, %v) {scope = "device", ordering = "consume"} : (!simt.ptr<i32, 1>, i32) -> ()
  return
}

// -----

func.func @unknown_kind(%p: !simt.ptr<i32, 1>, %v: i32) {
  // expected-error@+1 {{'"nand"' does not satisfy the constraint}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "nand", scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
  return
}

// -----

func.func @missing_scope(%p: !simt.ptr<i32, 1>, %v: i32) {
  // expected-error@+1 {{attribute "scope" is expected but not provided}}
  %x = "simt.atomic_rmw"(%p, %v) {kind = "add", ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32) -> i32
  return
}

// -----

func.func @cmpxchg_success_is_i1(%p: !simt.ptr<i32, 1>, %a: i32) {
  // expected-error@+1 {{expected 'i1' but got 'i32'}}
  %old, %ok = "simt.atomic_cmpxchg"(%p, %a, %a) {scope = "device", success_ordering = "relaxed", failure_ordering = "relaxed"} : (!simt.ptr<i32, 1>, i32, i32) -> (i32, i32)
  return
}
