// Matrix transpose through a 64 x 64 shared tile (65 floats per row against bank conflicts) with 32 x 8
// threads: 16 loads and 16 stores per thread, four times the bytes in flight of examples/rust/transpose.rs.
use cuda_device::{kernel, launch_contract, thread, SharedArray};

const TILE: usize = 64;

#[kernel]
#[launch_contract(domain = 2, block = (32, 8, 1))]
pub unsafe fn transpose64(input: &[f32], out: &mut [f32], rows: usize, cols: usize) {
    static mut T: SharedArray<f32, 4160> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    let x0 = thread::blockIdx_x() as usize * TILE;
    let y0 = thread::blockIdx_y() as usize * TILE;
    for j in (0..TILE).step_by(8) {
        for i in (0..TILE).step_by(32) {
            let x = x0 + tx + i;
            let y = y0 + ty + j;
            if x < cols && y < rows {
                T[(ty + j) * (TILE + 1) + tx + i] = input[y * cols + x];
            }
        }
    }
    thread::sync_threads();
    for j in (0..TILE).step_by(8) {
        for i in (0..TILE).step_by(32) {
            let x = y0 + tx + i;
            let y = x0 + ty + j;
            if x < rows && y < cols {
                out[y * rows + x] = T[(tx + i) * (TILE + 1) + ty + j];
            }
        }
    }
}
