// A rejected construct: rustc-style error with location, source line and caret; exit status 1.
// RUN: not %oxide-opt %S/Inputs/heap.rs 2>&1 | FileCheck %s
// CHECK: heap.rs:6:12: error: heap allocation (`Vec`) is not supported in device code
// CHECK-NEXT:   |
// CHECK-NEXT: 6 |     let v: Vec<f32> = Vec::new();
// CHECK-NEXT:   |            ^
// CHECK-NOT: Traceback
