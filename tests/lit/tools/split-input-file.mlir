// Each chunk is processed on its own; outputs are joined with the marker; line numbers stay the file's.
// RUN: %oxide-opt %s --split-input-file | FileCheck %s
// RUN: not %oxide-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// CHECK: func.func @first
// CHECK: // -----
// CHECK: func.func @second
func.func @first() {
  return
}

// -----

// This chunk defines @first again, which only a whole-file parse (one module) rejects.
// WHOLE: split-input-file.mlir:[[# @LINE + 1]]:1: error: redefinition of symbol named 'first'
func.func @first() {
  return
}
func.func @second() {
  return
}
