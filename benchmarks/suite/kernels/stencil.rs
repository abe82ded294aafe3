// 5-point 2-D stencil on a square grid: out = 0.5 * centre + 0.125 * (sum of the 4 neighbours) inside,
// borders untouched. 8 bytes of compulsory traffic per point; neighbours come from cache.
use cuda_device::{kernel, launch_contract, thread, DisjointSlice, Runtime2DIndex};

#[kernel]
#[launch_contract(domain = 2, block = (32, 8, 1))]
pub fn stencil(input: &[f32], width: usize, height: usize, mut out: DisjointSlice<f32, Runtime2DIndex>) {
    if let Some(idx) = thread::index_2d_runtime(&out) {
        let r = idx.row();
        let c = idx.col();
        if r > 0 && c > 0 && r + 1 < height && c + 1 < width {
            let centre = input[r * width + c];
            let sum = input[(r - 1) * width + c] + input[(r + 1) * width + c]
                + input[r * width + c - 1] + input[r * width + c + 1];
            if let Some(o) = out.get_mut(idx) {
                *o = 0.5 * centre + 0.125 * sum;
            }
        }
    }
}
