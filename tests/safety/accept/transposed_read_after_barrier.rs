use cuda_device::{kernel, launch_contract, thread, warp, DisjointSlice, Runtime2DIndex, SharedArray};
#[kernel]
#[launch_contract(domain = 2, block = (16, 16, 1))]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut T: SharedArray<f32, 256> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    T[ty * 16 + tx] = x[ty * 16 + tx];
    thread::sync_threads();
    out[ty * 16 + tx] = T[tx * 16 + ty];
}
