// A grid barrier and the cluster barrier's wait join every thread of the block, so shared-memory accesses
// on either side of them do not race.
use cuda_device::{cluster, cluster_launch, cooperative_launch, grid, kernel, launch_contract, thread, SharedArray};
#[kernel]
#[cooperative_launch]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn after_grid_sync(out: &mut [f32]) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = t as f32;
    grid::sync();
    out[t] = S[255 - t];
}
#[kernel]
#[cluster_launch(2, 1, 1)]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub unsafe fn after_cluster_sync(out: &mut [f32]) {
    static mut S: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    S[t] = t as f32;
    cluster::cluster_sync();
    out[t] = S[255 - t];
}
