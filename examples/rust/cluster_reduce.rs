// A reduction across a thread-block cluster through distributed shared memory (sm_90): each block of a
// 4-block cluster sums its 256 inputs in shared memory; after a cluster barrier, the cluster's rank-0 block
// reads the other blocks' partial sums straight out of their shared memory and writes the cluster's total.
use cuda_device::{cluster, cluster_launch, kernel, launch_contract, thread, SharedArray};

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
#[cluster_launch(4, 1, 1)]
pub unsafe fn cluster_sum(x: &[f32], out: &mut [f32]) {
    static mut PARTIAL: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let i = thread::index_1d().get();
    PARTIAL[t] = if i < x.len() { x[i] } else { 0.0 };
    thread::sync_threads();
    let mut stride = 128;
    while stride > 0 {
        if t < stride {
            PARTIAL[t] = PARTIAL[t] + PARTIAL[t + stride];
        }
        thread::sync_threads();
        stride /= 2;
    }
    // Every block's partial sum is in its shared memory before any block reads another's.
    cluster::cluster_sync();
    if cluster::block_rank() == 0 && t == 0 {
        let mut total = 0.0f32;
        let mut rank = 0;
        while rank < cluster::cluster_size() {
            total += *cluster::map_shared_rank(core::ptr::addr_of!(PARTIAL) as *const f32, rank);
            rank += 1;
        }
        out[cluster::cluster_idx() as usize] = total;
    }
    // A block's shared memory must outlive the reads of its cluster's rank 0.
    cluster::cluster_sync();
}
