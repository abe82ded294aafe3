// An empty input is located at its first line.
// RUN: not %oxide-opt %s --emit=ptx 2>&1 | FileCheck %s
// CHECK: empty-input.mlir:1:1: error: nothing to compile
