// Bad input: a located error (file:line:col, the line, a caret) and exit status 1, never a traceback.
// RUN: not %oxide-opt %s 2>&1 | FileCheck %s
// RUN: not %oxide-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not %oxide-opt %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: parse-errors.mlir:[[# @LINE + 4]]:8: error: custom op 'arith.bogus' is unknown
// CHECK-NEXT:   |
// CHECK-NEXT: [[# @LINE + 2]] |   %x = arith.bogus %a : f32
// CHECK-NEXT:   |        ^
  %x = arith.bogus %a : f32
// CHECK-NOT: Traceback
// STDIN: <stdin>:[[# @LINE - 2]]:8: error: custom op 'arith.bogus' is unknown
// MISSING: error: cannot read {{.*}}missing.mlir
