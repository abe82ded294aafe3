// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @groups
func.func @groups() {
  // CHECK: "simt.wgmma_fence"() : () -> ()
  "simt.wgmma_fence"() : () -> ()
  // CHECK: "simt.wgmma_commit_group"() : () -> ()
  "simt.wgmma_commit_group"() : () -> ()
  // CHECK: "simt.wgmma_wait_group"() {pending = 0 : i64} : () -> ()
  "simt.wgmma_wait_group"() {pending = 0} : () -> ()
  // CHECK: "simt.wgmma_wait_group"() {pending = 7 : i64} : () -> ()
  "simt.wgmma_wait_group"() {pending = 7} : () -> ()
  return
}

// CHECK-LABEL: func.func @mma
func.func @mma(%a: i64, %b: i64, %x: f32, %h: vector<2xf16>) {
  // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "bf16", k = 16 : i64, m = 64 : i64, n = 8 : i64, negate_a = false, negate_b = true, scale_d = "accumulate", transpose_a = true, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  %0:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %b) {m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = true, transpose_a = true, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "tf32", k = 8 : i64, m = 64 : i64, n = 8 : i64, {{.*}}scale_d = "overwrite"
  %1:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %b) {m = 64, n = 8, k = 8, input = "tf32", accumulator = "f32", scale_d = "overwrite", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  // An f16 accumulator is n/4 packed registers.
  // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f16", input = "e4m3", k = 32 : i64, m = 64 : i64, n = 16 : i64{{.*}} : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)
  %2:4 = "simt.wgmma_mma_async"(%h, %h, %h, %h, %a, %b) {m = 64, n = 16, k = 32, input = "e4m3", accumulator = "f16", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = false} : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)
  // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f16", input = "f16", k = 16 : i64
  %3:2 = "simt.wgmma_mma_async"(%h, %h, %a, %b) {m = 64, n = 8, k = 16, input = "f16", accumulator = "f16", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_a = false, transpose_b = true} : (vector<2xf16>, vector<2xf16>, i64, i64) -> (vector<2xf16>, vector<2xf16>)
  // CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "e5m2", k = 32 : i64
  %4:4 = "simt.wgmma_mma_async"(%x, %x, %x, %x, %a, %b) {m = 64, n = 8, k = 32, input = "e5m2", accumulator = "f32", scale_d = "accumulate", negate_a = true, negate_b = false, transpose_a = false, transpose_b = false} : (f32, f32, f32, f32, i64, i64) -> (f32, f32, f32, f32)
  return
}

// CHECK-LABEL: func.func @descriptors
func.func @descriptors(%p: !simt.ptr<bf16, 3>, %s: i32) {
  // CHECK: "simt.smem_desc"(%{{.*}}) {base_offset = 0 : i64, leading_byte_offset = 16 : i64, stride_byte_offset = 1024 : i64, swizzle = "128B"} : (!simt.ptr<bf16, 3 : i64>) -> i64
  %0 = "simt.smem_desc"(%p) {leading_byte_offset = 16, stride_byte_offset = 1024, swizzle = "128B", base_offset = 0} : (!simt.ptr<bf16, 3>) -> i64
  // CHECK: "simt.smem_desc"(%{{.*}}) {base_offset = 7 : i64, leading_byte_offset = 262128 : i64, stride_byte_offset = 0 : i64, swizzle = "none"} : (i32) -> i64
  %1 = "simt.smem_desc"(%s) {leading_byte_offset = 262128, stride_byte_offset = 0, swizzle = "none", base_offset = 7} : (i32) -> i64
  // CHECK: swizzle = "64B"
  %2 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = 512, swizzle = "64B", base_offset = 0} : (i32) -> i64
  // CHECK: swizzle = "32B"
  %3 = "simt.smem_desc"(%s) {leading_byte_offset = 16, stride_byte_offset = 256, swizzle = "32B", base_offset = 0} : (i32) -> i64
  return
}

// CHECK-LABEL: func.func @registers
func.func @registers() {
  // CHECK: "simt.setmaxnreg"() {action = "dec", regs = 24 : i64} : () -> ()
  "simt.setmaxnreg"() {regs = 24, action = "dec"} : () -> ()
  // CHECK: "simt.setmaxnreg"() {action = "inc", regs = 256 : i64} : () -> ()
  "simt.setmaxnreg"() {regs = 256, action = "inc"} : () -> ()
  return
}

// A from registers: 4 i32 registers (pairs of input-type values) per thread, then B's descriptor.
// CHECK-LABEL: func.func @mma_reg_a
func.func @mma_reg_a(%b: i64, %x: f32, %w: i32) {
  // CHECK: "simt.wgmma_mma_async_reg_a"({{.*}}) {accumulator = "f32", input = "bf16", k = 16 : i64, m = 64 : i64, n = 8 : i64, negate_a = false, negate_b = false, operandSegmentSizes = array<i32: 4, 4, 1>, scale_d = "accumulate", transpose_b = true} : (f32, f32, f32, f32, i32, i32, i32, i32, i64) -> (f32, f32, f32, f32)
  %0:4 = "simt.wgmma_mma_async_reg_a"(%x, %x, %x, %x, %w, %w, %w, %w, %b) {operandSegmentSizes = array<i32: 4, 4, 1>, m = 64, n = 8, k = 16, input = "bf16", accumulator = "f32", scale_d = "accumulate", negate_a = false, negate_b = false, transpose_b = true} : (f32, f32, f32, f32, i32, i32, i32, i32, i64) -> (f32, f32, f32, f32)
  return
}
