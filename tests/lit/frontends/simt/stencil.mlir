// RUN: %oxide-opt %examples/rust/stencil.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/stencil.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// CHECK: gpu.func @stencil({{.*}}!simt.disjoint<f32, "runtime_2d">) kernel
// CHECK: "simt.index_2d_runtime"
// CHECK: "simt.index_row"
// CHECK: "simt.index_col"
// PTX: .entry stencil(
// The runtime 2-D slice carries its row width as a u32 parameter.
// PTX: .param .u32 stencil_param_6
