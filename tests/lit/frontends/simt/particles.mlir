// RUN: %oxide-opt %examples/rust/particles.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/particles.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// A Copy struct parameter is passed flattened (one parameter per field); its methods are inlined.
// CHECK: gpu.func @advance(%{{.*}}: !simt.slice<f32>, %{{.*}}: !simt.slice<f32>, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: !simt.disjoint<f32, "1d">) kernel
// CHECK: "simt.libdevice"({{.*}}) {fn = "sqrt"}
// PTX: sqrt.rn.f32
