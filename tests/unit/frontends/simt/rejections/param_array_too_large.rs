// expect: 6:44: array length 4294967296 is out of range
use cuda_device::{kernel, launch_contract, thread, DisjointSlice, Runtime2DIndex};

#[kernel]
#[launch_contract(domain = 2)]
pub fn stencil(input: &[f32], width: [u32; 4294967296], height: isize, mut out: DisjointSlice<f32, Runtime2DIndex>) {
    if let Some(idx) = thread::index_2d_runtime(&out) {
        let r = idx.row();
        let c = idx.col();
        if r > 0 && c > 0 && r + 1 < height && c + 1 < width {
            let center = input[r * width + c];
            let sum = input[(r - 1) * width + c] + input[(r + 1) * width + c]
                + input[r * width + c - 1] + input[r * width + c + 1];
            if let Some(o) = out.get_mut(idx) {
                *o = 0.5 * center + 0.125 * sum;
            }
        }
    }
}
