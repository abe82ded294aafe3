// RUN: %oxide-opt %examples/rust/printf.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/printf.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// Rust placeholders become a C format; f32 is promoted to f64 for vprintf.
// CHECK: gpu.printf "block %u of %u: scale = %.3f, mask 0x%x\0A"
// CHECK-SAME: i32, i32, f64, i32
// PTX: vprintf
