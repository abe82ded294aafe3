// RUN: %oxide-opt %examples/rust/block_reduce.rs | FileCheck %s --check-prefix=BLOCK
// RUN: %oxide-opt %examples/rust/block_reduce.rs --emit=ptx | FileCheck %s --check-prefix=BLOCK-PTX
// RUN: %oxide-opt %examples/rust/warp_reduce.rs --emit=ptx | FileCheck %s --check-prefix=WARP-PTX
// BLOCK: "simt.shared_array"
// BLOCK: "simt.sync_threads"
// BLOCK: scf.while
// BLOCK: "simt.store"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.slice_mut<f32>, index, f32)
// BLOCK-PTX: .reqntid 256, 1, 1
// BLOCK-PTX: bar.sync 0
// BLOCK-PTX: st.shared.b32
// WARP-PTX: .entry warp_sum(
// WARP-PTX-COUNT-5: shfl.sync.bfly.b32
// WARP-PTX: %laneid
