// Shared-memory tiled SGEMM, C = A * B (row-major, n x n): 16 x 16 tiles of A and B staged per block.
use cuda_device::{kernel, launch_contract, thread, DisjointSlice, Runtime2DIndex, SharedArray};

const TILE: usize = 16;

#[kernel]
#[launch_contract(domain = 2, block = (16, 16, 1))]
pub fn sgemm(a: &[f32], b: &[f32], n: usize, mut c: DisjointSlice<f32, Runtime2DIndex>) {
    static mut A_TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    static mut B_TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    let row = thread::blockIdx_y() as usize * TILE + ty;
    let col = thread::blockIdx_x() as usize * TILE + tx;
    let mut acc = 0.0f32;
    let mut t = 0;
    while t < n {
        unsafe {
            A_TILE[ty * TILE + tx] = if row < n && t + tx < n { a[row * n + t + tx] } else { 0.0 };
            B_TILE[ty * TILE + tx] = if t + ty < n && col < n { b[(t + ty) * n + col] } else { 0.0 };
        }
        thread::sync_threads();
        for p in 0..TILE {
            unsafe {
                acc += A_TILE[ty * TILE + p] * B_TILE[p * TILE + tx];
            }
        }
        thread::sync_threads();
        t += TILE;
    }
    if let Some(idx) = thread::index_2d_runtime(&c) {
        if let Some(out) = c.get_mut(idx) {
            *out = acc;
        }
    }
}
