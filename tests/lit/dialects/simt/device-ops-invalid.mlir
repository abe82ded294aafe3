// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @inline_ptx_output_count(%x: i32) {
  // expected-error@+1 {{2 output constraint(s) for 1 result(s)}}
  %0 = "simt.inline_ptx"(%x) {asm = "mov.u32 $0, $2;", constraints = "=r,=r,r", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>} : (i32) -> i32
  return
}

// -----

func.func @inline_ptx_input_count(%x: i32) {
  // expected-error@+1 {{0 input constraint(s) for 1 operand(s)}}
  %0 = "simt.inline_ptx"(%x) {asm = "mov.u32 $0, 1;", constraints = "=r", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>} : (i32) -> i32
  return
}

// -----

func.func @inline_ptx_vector_operand(%x: vector<4xf32>) {
  // expected-error@+1 {{an inline PTX operand is a scalar register or a simt pointer, not vector<4xf32>}}
  "simt.inline_ptx"(%x) {asm = "st.v4.f32 [a], $0;", constraints = "r", operandSegmentSizes = array<i32: 1, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>} : (vector<4xf32>) -> ()
  return
}

// -----

func.func @inline_ptx_empty() {
  // expected-error@+1 {{empty PTX template}}
  "simt.inline_ptx"() {asm = " ", constraints = "", operandSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 0, 0, 0, 0, 0, 0, 0, 0>} : () -> ()
  return
}

// -----

func.func @int_to_ptr_is_generic(%a: i64) {
  // expected-error@+1 {{an integer address is a generic pointer (address space 0)}}
  %0 = "simt.int_to_ptr"(%a) : (i64) -> !simt.ptr<f32, 1>
  return
}

// -----

func.func @constant_addr_space() {
  // expected-error@+1 {{a constant-memory variable is in address space 4}}
  %0 = "simt.constant_addr"() {symbol = "X"} : () -> !simt.ptr<f32, 1>
  return
}
