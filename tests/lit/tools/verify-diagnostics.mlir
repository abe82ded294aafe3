// --verify-diagnostics fails (status 1) when an expected error is missing or an unexpected one appears.
// RUN: not %oxide-opt %S/Inputs/wrong-expectations.mlir --split-input-file --verify-diagnostics 2>&1 | FileCheck %s
// CHECK-DAG: wrong-expectations.mlir:3:6: error: expected error "this is never emitted" was not produced
// CHECK-DAG: wrong-expectations.mlir:10:8: error: unexpected error: {{.*}}alignment must be a power of two from 1 to 1024, got 5
// CHECK-DAG: wrong-expectations.mlir:18:8: error: unexpected error: expected 'f32' but got 'i64'
// CHECK-DAG: wrong-expectations.mlir:17:6: error: expected error "expected 'f32' but got 'i64'" was not produced
// The @above/@below/@-N forms and a matching chunk pass.
// RUN: %oxide-opt %S/Inputs/right-expectations.mlir --split-input-file --verify-diagnostics
