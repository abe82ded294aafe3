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
