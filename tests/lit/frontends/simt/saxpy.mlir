// RUN: %oxide-opt %examples/rust/saxpy.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/saxpy.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// The #[device] helper is inlined; the contract proves the 1-D launch.
// CHECK: gpu.func @saxpy(%{{.*}}: f32, %{{.*}}: !simt.slice<f32>, %{{.*}}: !simt.slice<f32>, %{{.*}}: !simt.disjoint<f32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}}
// CHECK-NOT: func.call
// CHECK: math.fma
// PTX: .entry saxpy(
// PTX: fma.rn.f32
