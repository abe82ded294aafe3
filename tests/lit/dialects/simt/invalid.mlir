// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

// IRDL constraints: each failure is reported at the op, by MLIR's own verifier.

func.func @load_result_must_be_element_type(%a: !simt.slice<f32>, %i: index) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> i32
  return
}

// -----

func.func @load_from_disjoint_is_not_allowed(%d: !simt.disjoint<f32>, %i: index) {
  // expected-error@+1 {{does not satisfy the constraint}}
  %x = "simt.load"(%d, %i) : (!simt.disjoint<f32>, index) -> f32
  return
}

// -----

func.func @load_index_must_be_index(%a: !simt.slice<f32>, %i: i32) {
  // expected-error@+1 {{expected 'index' but got 'i32'}}
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, i32) -> f32
  return
}

// -----

func.func @store_value_must_match_element(%d: !simt.disjoint<f32>, %v: f64) {
  %w = "simt.index_1d"() : () -> !simt.thread_index
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  "simt.disjoint_store"(%d, %w, %v) : (!simt.disjoint<f32>, !simt.thread_index, f64) -> ()
  return
}

// -----

func.func @store_needs_a_witness(%d: !simt.disjoint<f32>, %i: index, %v: f32) {
  // expected-error@+1 {{expected base type 'simt.thread_index' but got 'builtin.index'}}
  "simt.disjoint_store"(%d, %i, %v) : (!simt.disjoint<f32>, index, f32) -> ()
  return
}

// -----

func.func @len_of_a_scalar(%x: f32) {
  // expected-error@+1 {{does not satisfy the constraint}}
  %n = "simt.len"(%x) : (f32) -> index
  return
}

// -----

func.func @dim_must_be_xyz() {
  // expected-error@+1 {{does not satisfy the constraint}}
  %0 = "simt.thread_id"() {dim = #simt.dim<"w">} : () -> index
  return
}

// -----

func.func @dim_attribute_is_required() {
  // expected-error@+1 {{attribute "dim" is expected but not provided}}
  %0 = "simt.thread_id"() : () -> index
  return
}

// -----

// Python verifiers (Op.verify_): what IRDL cannot express.

func.func @alignment_power_of_two() {
  // expected-error@+1 {{'simt.shared_array' op alignment must be a positive power of two, got 12}}
  %s = "simt.shared_array"() {align = 12 : i64} : () -> !simt.shared<f32, 256 : i64>
  return
}

// -----

func.func @shared_array_not_empty() {
  // expected-error@+1 {{a shared array needs at least one element, got 0}}
  %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 0 : i64>
  return
}
