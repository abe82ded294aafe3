// Transpose through a padded 32 x 33 shared tile (the padding avoids bank conflicts); block 32 x 8, each
// thread moves 4 elements.
use cuda_device::{kernel, launch_contract, thread, SharedArray};

const TILE: usize = 32;

#[kernel]
#[launch_contract(domain = 2, block = (32, 8, 1))]
pub unsafe fn transpose(input: &[f32], out: &mut [f32], rows: usize, cols: usize) {
    static mut T: SharedArray<f32, 1056> = SharedArray::UNINIT;
    let tx = thread::threadIdx_x() as usize;
    let ty = thread::threadIdx_y() as usize;
    let x = thread::blockIdx_x() as usize * TILE + tx;
    let y = thread::blockIdx_y() as usize * TILE + ty;
    for j in (0..TILE).step_by(8) {
        if x < cols && y + j < rows {
            T[(ty + j) * (TILE + 1) + tx] = input[(y + j) * cols + x];
        }
    }
    thread::sync_threads();
    let x2 = thread::blockIdx_y() as usize * TILE + tx;
    let y2 = thread::blockIdx_x() as usize * TILE + ty;
    for j in (0..TILE).step_by(8) {
        if x2 < rows && y2 + j < cols {
            out[(y2 + j) * rows + x2] = T[tx * (TILE + 1) + ty + j];
        }
    }
}
