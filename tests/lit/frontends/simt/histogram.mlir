// RUN: %oxide-opt %examples/rust/histogram.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/histogram.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// `&[DeviceAtomicU32]` is a slice of i32 whose elements reach the atomics through simt.elem_ptr.
// CHECK: gpu.func @histogram(%{{.*}}: !simt.slice<i32>, %{{.*}}: !simt.slice<i32>) kernel
// CHECK: arith.remui
// CHECK: "simt.elem_ptr"
// CHECK: "simt.atomic_rmw"({{.*}}) {kind = "add", ordering = "relaxed", scope = "device"}
// PTX: atom.relaxed.gpu.global.add.u32
