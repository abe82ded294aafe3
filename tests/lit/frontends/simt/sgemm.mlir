// RUN: %oxide-opt %examples/rust/sgemm_naive.rs --instantiate sgemm_naive=64 | FileCheck %s --check-prefix=NAIVE
// RUN: %oxide-opt %examples/rust/sgemm_tiled.rs --instantiate sgemm_tiled=64 | FileCheck %s --check-prefix=TILED
// RUN: %oxide-opt %examples/rust/sgemm_tiled.rs --instantiate sgemm_tiled=64 --emit=ptx | FileCheck %s --check-prefix=PTX
// NAIVE: gpu.func @sgemm_naive_64({{.*}}!simt.disjoint<f32, "2d:64">) kernel
// NAIVE: "simt.index_2d"() : () -> !simt.thread_index<"2d:64">
// NAIVE: scf.for
// TILED: gpu.func @sgemm_tiled_64
// TILED-SAME: simt.contract = {block = array<i32: 16, 16, 1>, domain = 2 : i64}
// TILED-COUNT-2: "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 256 : i64>
// TILED: scf.while
// TILED: "simt.sync_threads"
// PTX: .reqntid 16, 16, 1
// PTX: bar.sync 0
// PTX: ld.shared
// PTX: fma.rn.f32
