// A rejected construct: rustc-style error with location, source line and caret; exit status 1.
// RUN: not %oxide-opt %S/Inputs/closure.rs 2>&1 | FileCheck %s
// CHECK: closure.rs:6:13: error: a closure is not supported in device code; write a device function
// CHECK-NEXT:   |
// CHECK-NEXT: 6 |     let f = |x: f32| x * 2.0;
// CHECK-NEXT:   |             ^
// CHECK-NOT: Traceback
