// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @result_is_a_vector(%p: !simt.ptr<f32, 1>, %s: i64, %n: i64) {
  // expected-error@+1 {{the result of a masked access is a vector<N x T>, not f32}}
  %a = "simt.masked_load"(%p, %s, %n) : (!simt.ptr<f32, 1>, i64, i64) -> f32
  return
}

// -----

func.func @element_types_match(%p: !simt.ptr<f32, 1>, %s: i64, %n: i64) {
  // expected-error@+1 {{the result holds f16 but the pointer points to f32: cast the pointer (simt.ptr_cast) to the vector's element type}}
  %a = "simt.masked_load"(%p, %s, %n) : (!simt.ptr<f32, 1>, i64, i64) -> vector<4xf16>
  return
}

// -----

func.func @at_most_16_lanes(%p: !simt.ptr<i8, 1>, %s: i64, %n: i64, %v: vector<32xi8>) {
  // expected-error@+1 {{the value of a masked access is a fixed 1-D vector of 1 to 16 elements, not vector<32xi8>}}
  "simt.masked_store"(%p, %s, %n, %v) : (!simt.ptr<i8, 1>, i64, i64, vector<32xi8>) -> ()
  return
}

// -----

func.func @count_is_i64(%p: !simt.ptr<f32, 1>, %s: i64, %n: i32, %v: vector<4xf32>) {
  // expected-error@+1 {{}}
  "simt.masked_store"(%p, %s, %n, %v) : (!simt.ptr<f32, 1>, i64, i32, vector<4xf32>) -> ()
  return
}

// -----

func.func @guarded_runs_are_words(%p: !simt.ptr<f16, 1>, %c: i1) {
  // expected-error@+1 {{the result of a guarded access is a vector of 1, 2 or 4 32-bit elements, not vector<8xf16>}}
  %a = "simt.guarded_load"(%p, %c) {readonly = true} : (!simt.ptr<f16, 1>, i1) -> vector<8xf16>
  return
}

// -----

func.func @guarded_runs_are_global(%p: !simt.ptr<f32, 3>, %c: i1, %v: vector<4xf32>) {
  // expected-error@+1 {{a guarded access reads or writes global memory (address space 1), not !simt.ptr<f32, 3 : i64>}}
  "simt.guarded_store"(%p, %c, %v) : (!simt.ptr<f32, 3>, i1, vector<4xf32>) -> ()
  return
}
