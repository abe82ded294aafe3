// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @wait_group_at_most_7() {
  // expected-error@+1 {{'simt.wgmma_wait_group' op wgmma_wait_group pending must be 0 to 7, got 8}}
  "simt.wgmma_wait_group"() {pending = 8} : () -> ()
  return
}

// -----

func.func @wait_group_not_negative() {
  // expected-error@+1 {{wgmma_wait_group pending must be 0 to 7, got -1}}
  "simt.wgmma_wait_group"() {pending = -1} : () -> ()
  return
}

// -----

func.func @wait_group_is_an_integer() {
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  "simt.wgmma_wait_group"() {pending = "0"} : () -> ()
  return
}

// -----

func.func @wait_group_wide_integer() {
  // expected-error@+1 {{wgmma_wait_group pending must be 0 to 7, got 9223372036854775808}}
  "simt.wgmma_wait_group"() {pending = 9223372036854775808 : i65} : () -> ()
  return
}

// -----

func.func @m_is_64(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma m must be 64, got 32}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 32, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @n_multiple_of_8(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma n must be a multiple of 8 from 8 to 256, got 12}}
  %0:6 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %x, %x, %a, %a) {m = 64, n = 12, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32, f32, f32)
  return
}

// -----

func.func @n_at_most_256(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma n must be a multiple of 8 from 8 to 256, got 264}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 264, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @n_positive(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma n must be a multiple of 8 from 8 to 256, got 0}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 0, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @k_of_16_bit(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma k must be 16 for f16 inputs, got 32}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 32, input = "f16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @k_of_tf32(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma k must be 8 for tf32 inputs, got 16}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "tf32", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @k_of_fp8(%a: i64, %x: f32) {
  // expected-error@+1 {{wgmma k must be 32 for e5m2 inputs, got 16}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "e5m2", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @unknown_input(%a: i64, %x: f32) {
  // expected-error@+1 {{'"s8"' does not satisfy the constraint}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 32, input = "s8", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @bf16_accumulates_in_f32(%a: i64, %h: vector<2xf16>) {
  // expected-error@+1 {{bf16 inputs accumulate in f32 only, not f16}}
  %0:2 = "simt.wgmma_mma_async"(%h, %h, %a, %a) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f16", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>)
  return
}

// -----

func.func @tf32_accumulates_in_f32(%a: i64, %h: vector<2xf16>) {
  // expected-error@+1 {{tf32 inputs accumulate in f32 only, not f16}}
  %0:2 = "simt.wgmma_mma_async"(%h, %h, %a, %a) {m = 64, n = 8, k = 8, input = "tf32", accumulator = "f16", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>)
  return
}

// -----

func.func @tf32_not_transposed(%a: i64, %x: f32) {
  // expected-error@+1 {{only bf16 and f16 operands may be transposed (MN-major); tf32 operands are K-major}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 8, input = "tf32", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = true, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @fp8_not_transposed(%a: i64, %x: f32) {
  // expected-error@+1 {{only bf16 and f16 operands may be transposed (MN-major); e4m3 operands are K-major}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 32, input = "e4m3", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = true} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @accumulator_count(%a: i64, %x: f32) {
  // expected-error@+1 {{an m64n16 f32 accumulator is 8 f32 values per thread, got 4 operands of types (f32)}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 16, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @accumulator_element_type(%a: i64, %h: vector<2xf16>) {
  // expected-error@+1 {{an m64n8 f32 accumulator is 4 f32 values per thread, got 4 operands of types (vector<2xf16>)}}
  %0:4 = "simt.wgmma_mma_async"(%h, %h, %h, %h, %a, %a) {m = 64, n = 8, k = 16, input = "f16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)
  return
}

// -----

func.func @f16_accumulator_count(%a: i64, %h: vector<2xf16>) {
  // expected-error@+1 {{an m64n16 f16 accumulator is 4 vector<2xf16> values per thread, got 2 operands of types (vector<2xf16>)}}
  %0:2 = "simt.wgmma_mma_async"(%h, %h, %a, %a) {m = 64, n = 16, k = 16, input = "f16", accumulator = "f16", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>)
  return
}

// -----

func.func @results_match_accumulator(%a: i64, %x: f32) {
  // expected-error@+1 {{the results are the accumulator after the MMA: 4 values of type f32, got 3 of types (f32)}}
  %0:3 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32)
  return
}

// -----

func.func @accumulator_type_constraint(%a: i64, %x: f64) {
  // expected-error@+1 {{'f64' does not satisfy the constraint}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f64, f64, f64, f64, i64, i64) -> (f64, f64, f64, f64)
  return
}

// -----

func.func @descriptor_operand_is_i64(%a: i32, %x: f32) {
  // expected-error@+1 {{expected 'i64' but got 'i32'}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i32, i32) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @negate_is_a_bool(%a: i64, %x: f32) {
  // expected-error@+1 {{'1 : i64' does not satisfy the constraint}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = 1, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @scale_d_kind(%a: i64, %x: f32) {
  // expected-error@+1 {{'"zero"' does not satisfy the constraint}}
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %a) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "zero", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @descriptor_of_global_pointer(%p: !simt.ptr<bf16, 1>) {
  // expected-error@+1 {{a matrix descriptor addresses shared memory (address space 3), got !simt.ptr<bf16, 1 : i64>}}
  %0 = "simt.smem_desc"(%p) {leading_byte_offset = 16, stride_byte_offset = 1024, swizzle = "128B", base_offset = 0} : (!simt.ptr<bf16, 1>) -> i64
  return
}

// -----

func.func @descriptor_offset_multiple_of_16(%s: i32) {
  // expected-error@+1 {{leading_byte_offset must be a multiple of 16 from 0 to 262128, got 24}}
  %0 = "simt.smem_desc"(%s) {leading_byte_offset = 24, stride_byte_offset = 1024, swizzle = "128B", base_offset = 0} : (i32) -> i64
  return
}

// -----

func.func @descriptor_offset_fits(%s: i32) {
  // expected-error@+1 {{stride_byte_offset must be a multiple of 16 from 0 to 262128, got 262144}}
  %0 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = 262144, swizzle = "128B", base_offset = 0} : (i32) -> i64
  return
}

// -----

func.func @descriptor_offset_not_negative(%s: i32) {
  // expected-error@+1 {{stride_byte_offset must be a multiple of 16 from 0 to 262128, got -16}}
  %0 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = -16, swizzle = "128B", base_offset = 0} : (i32) -> i64
  return
}

// -----

func.func @descriptor_base_offset(%s: i32) {
  // expected-error@+1 {{base_offset must be 0 to 7, got 8}}
  %0 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = 1024, swizzle = "128B", base_offset = 8} : (i32) -> i64
  return
}

// -----

func.func @descriptor_swizzle_mode(%s: i32) {
  // expected-error@+1 {{'"16B"' does not satisfy the constraint}}
  %0 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = 1024, swizzle = "16B", base_offset = 0} : (i32) -> i64
  return
}

// -----

func.func @descriptor_address_type(%s: i64) {
  // expected-error@+1 {{'i64' does not satisfy the constraint}}
  %0 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = 1024, swizzle = "128B", base_offset = 0} : (i64) -> i64
  return
}

// -----

func.func @setmaxnreg_multiple_of_8() {
  // expected-error@+1 {{setmaxnreg register count must be a multiple of 8 from 24 to 256, got 100}}
  "simt.setmaxnreg"() {regs = 100, action = "inc"} : () -> ()
  return
}

// -----

func.func @setmaxnreg_at_least_24() {
  // expected-error@+1 {{setmaxnreg register count must be a multiple of 8 from 24 to 256, got 16}}
  "simt.setmaxnreg"() {regs = 16, action = "dec"} : () -> ()
  return
}

// -----

func.func @setmaxnreg_at_most_256() {
  // expected-error@+1 {{setmaxnreg register count must be a multiple of 8 from 24 to 256, got 264}}
  "simt.setmaxnreg"() {regs = 264, action = "inc"} : () -> ()
  return
}

// -----

func.func @setmaxnreg_action() {
  // expected-error@+1 {{'"set"' does not satisfy the constraint}}
  "simt.setmaxnreg"() {regs = 64, action = "set"} : () -> ()
  return
}

// -----

func.func @reg_a_is_four_registers(%b: i64, %x: f32, %w: i32, %h: f16) {
  // expected-error@+1 {{a register A is 4 i32 registers (pairs of f16 values) per thread, got 2}}
  %0:4 = "simt.wgmma_mma_async_reg_a"(%x, %x, %x, %x, %w, %w, %b) {operandSegmentSizes = array<i32: 4, 2, 1>, m = 64, n = 8, k = 16, input = "f16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_b = false} : (f32, f32, f32, f32, i32, i32, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @reg_a_registers_are_i32(%b: i64, %x: f32, %w: i32, %h: f16) {
  // expected-error@+1 {{expected 'i32' but got 'f16'}}
  %0:4 = "simt.wgmma_mma_async_reg_a"(%x, %x, %x, %x, %h, %h, %h, %h, %b) {operandSegmentSizes = array<i32: 4, 4, 1>, m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_b = false} : (f32, f32, f32, f32, f16, f16, f16, f16, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @reg_a_16_bit_inputs_only(%b: i64, %x: f32, %w: i32, %h: f16) {
  // expected-error@+1 {{'"tf32"' does not satisfy the constraint}}
  %0:4 = "simt.wgmma_mma_async_reg_a"(%x, %x, %x, %x, %w, %w, %w, %w, %b) {operandSegmentSizes = array<i32: 4, 4, 1>, m = 64, n = 8, k = 8, input = "tf32", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_b = false} : (f32, f32, f32, f32, i32, i32, i32, i32, i64) -> (f32, f32, f32, f32)
  return
}

// -----

func.func @reg_a_accumulator_count(%b: i64, %x: f32, %w: i32, %h: f16) {
  // expected-error@+1 {{an m64n16 f32 accumulator is 8 f32 values per thread, got 4 operands of types (f32)}}
  %0:4 = "simt.wgmma_mma_async_reg_a"(%x, %x, %x, %x, %w, %w, %w, %w, %b) {operandSegmentSizes = array<i32: 4, 4, 1>, m = 64, n = 16, k = 16, input = "f16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_b = false} : (f32, f32, f32, f32, i32, i32, i32, i32, i64) -> (f32, f32, f32, f32)
  return
}
