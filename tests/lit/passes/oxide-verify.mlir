// oxide-verify runs the Python verifiers inside a pipeline and reports at the op's location.
// RUN: not %oxide-opt %s --split-input-file --pass-pipeline='builtin.module(oxide-verify)' 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// CHECK: "simt.shared_array"() {align = 8 : i64}
func.func @ok() {
  %s = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<f32, 32 : i64>
  return
}

// -----

// Parsing already runs the Python verifiers, so the error is reported before the pipeline starts.
// ERR: oxide-verify.mlir:[[# @LINE + 2]]:8: error: 'simt.shared_array' op alignment must be a power of two from 1 to 1024, got 3
func.func @bad() {
  %s = "simt.shared_array"() {align = 3 : i64} : () -> !simt.shared<f32, 32 : i64>
  return
}
