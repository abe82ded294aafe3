// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @coordinates_are_u32() {
  // expected-error@+1 {{expected 'i32' but got 'index'}}
  %0 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> index
  return
}

// -----

func.func @dim_must_be_xyz() {
  // expected-error@+1 {{does not satisfy the constraint}}
  %0 = "simt.thread_id"() {dim = #simt.dim<"w">} : () -> i32
  return
}

// -----

func.func @dim_attribute_is_required() {
  // expected-error@+1 {{attribute "dim" is expected but not provided}}
  %0 = "simt.block_dim"() : () -> i32
  return
}

// -----

func.func @unknown_register() {
  // expected-error@+1 {{does not satisfy the constraint}}
  %0 = "simt.special_reg"() {reg = "pc"} : () -> i32
  return
}

// -----

func.func @register_width() {
  // expected-error@+1 {{%clock64 reads as i64, not i32}}
  %0 = "simt.special_reg"() {reg = "clock64"} : () -> i32
  return
}

// -----

func.func @index_1d_is_a_1d_witness() {
  // expected-error@+1 {{expected '"1d"' but got '"warp"'}}
  %0 = "simt.index_1d"() : () -> !simt.thread_index<"warp">
  return
}

// -----

func.func @index_2d_needs_a_2d_space() {
  // expected-error@+1 {{mints a "2d" witness, but the result type says "1d"}}
  %0 = "simt.index_2d"() : () -> !simt.thread_index<"1d">
  return
}

// -----

func.func @malformed_space() {
  // expected-error@+1 {{unknown index space "2d:0"}}
  %0 = "simt.index_2d"() : () -> !simt.thread_index<"2d:0">
  return
}

// -----

func.func @runtime_witness_has_no_flat_value(%w: !simt.thread_index<"runtime_2d">) {
  // expected-error@+1 {{a runtime 2-D witness has no flat value}}
  %0 = "simt.index_value"(%w) : (!simt.thread_index<"runtime_2d">) -> index
  return
}

// -----

func.func @row_of_a_flat_witness(%w: !simt.thread_index<"1d">) {
  // expected-error@+1 {{expected '"runtime_2d"' but got '"1d"'}}
  %0 = "simt.index_row"(%w) : (!simt.thread_index<"1d">) -> index
  return
}

// -----

func.func @witness_from_an_integer(%i: index) {
  // expected-error@+1 {{expected base type 'simt.thread_index' but got 'builtin.index'}}
  %0 = "simt.index_valid"(%i) : (index) -> i1
  return
}

// -----

func.func @u32_index_is_1d() {
  // expected-error@+1 {{expected '"1d"' but got '"2d:32"'}}
  %0 = "simt.index_1d_u32"() : () -> !simt.thread_index<"2d:32">
  return
}

// -----

func.func @runtime_2d_result() {
  // expected-error@+1 {{expected '"runtime_2d"' but got '"1d"'}}
  %0 = "simt.index_2d_runtime"() : () -> !simt.thread_index<"1d">
  return
}

// -----

func.func @col_of_a_flat_witness(%w: !simt.thread_index<"warp">) {
  // expected-error@+1 {{expected '"runtime_2d"' but got '"warp"'}}
  %0 = "simt.index_col"(%w) : (!simt.thread_index<"warp">) -> index
  return
}

// -----

func.func @grid_dim_is_u32() {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %0 = "simt.grid_dim"() {dim = #simt.dim<"x">} : () -> i64
  return
}

// -----

func.func @block_id_is_u32() {
  // expected-error@+1 {{expected 'i32' but got 'index'}}
  %0 = "simt.block_id"() {dim = #simt.dim<"y">} : () -> index
  return
}
