use cuda_device::vector::{self, F32x4};
use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn f32x4_view_copy(input: &[f32], mut output: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    let out_len = output.len();
    let out_flat = unsafe { core::slice::from_raw_parts_mut(output.as_mut_ptr(), out_len) };
    let Some(quads) = vector::as_vectors::<F32x4>(input) else {
        return;
    };
    let Some(out_quads) = vector::as_vectors_mut::<F32x4>(out_flat) else {
        return;
    };
    if i < quads.len() && i < out_quads.len() {
        out_quads[i] = quads[i];
    }
}

#[kernel]
pub fn lanes(input: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        if let Some(v) = vector::as_vectors::<F32x4>(input) {
            if i < v.len() {
                let q = v[i];
                let w = F32x4::new([q.w(), q.z(), q.y(), q.x()]);
                *o = w.x() * 1000.0 + w.to_array()[3] + q.0[1] * 0.0;
            }
        }
    }
}
