// RUN: %oxide-opt %examples/rust/transpose.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/transpose.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// CHECK: "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 1056 : i64>
// CHECK: scf.for
// CHECK: "simt.shared_store"
// CHECK: "simt.sync_threads"
// CHECK: "simt.shared_load"
// PTX: .reqntid 32, 8, 1
// PTX: bar.sync 0
