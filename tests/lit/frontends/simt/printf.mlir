// RUN: %oxide-opt %examples/rust/printf.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/printf.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// Rust placeholders become a C format; f32 is promoted to f64 for vprintf. The operands are grouped by
// type (i32, i64, f64) and `order` restores the format order.
// CHECK: "simt.printf"
// CHECK-SAME: format = "block %u of %u: scale = %.3f, mask 0x%x\0A"
// CHECK-SAME: order = "iidi"
// CHECK-SAME: (i32, i32, i32, f64) -> i32
// PTX: vprintf
