// RUN: %oxide-opt %examples/rust/transpose.rs | FileCheck %s
// RUN: %oxide-opt %examples/rust/transpose.rs --emit=ptx | FileCheck %s --check-prefix=PTX
// CHECK: "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 1056 : i64>
// CHECK: scf.for
// CHECK: "simt.shared_store"
// CHECK: "simt.sync_threads"
// CHECK: "simt.shared_load"
// PTX: .reqntid 32, 8, 1
// The load loop is versioned (oxide-version-bounds-checks): both copies keep their own four loads. Had LLVM
// merged the copies' last iterations (7 loads), the fast copy's last load would sit behind a branch and ptxas
// could not issue it with the other three (benchmarks/RESULTS.md, transpose).
// PTX-COUNT-8: ld.global.nc.b32
// PTX: // end of the bounds-checked copy of a versioned loop
// PTX: bar.sync 0
