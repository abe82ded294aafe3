// Naive SGEMM, C = A * B (row-major, M x K times K x N), one thread per element of C through an
// Index2D<N> witness; N is a const generic fixed when the kernel is instantiated.
use cuda_device::{kernel, launch_contract, thread, DisjointSlice, Index2D};

#[kernel]
#[launch_contract(domain = 2)]
pub fn sgemm_naive<const N: usize>(a: &[f32], b: &[f32], k: usize, mut c: DisjointSlice<f32, Index2D<N>>) {
    if let Some(idx) = thread::index_2d::<N>() {
        let flat = idx.get();
        let row = flat / N;
        let col = flat % N;
        let mut acc = 0.0;
        for p in 0..k {
            acc += a[row * k + p] * b[p * N + col];
        }
        if let Some(out) = c.get_mut(idx) {
            *out = acc;
        }
    }
}
