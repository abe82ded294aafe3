// expect: 3:10: unsafe
#[kernel]
pub fn k(out: &mut [f32]) {
    let i = thread::index_1d().get();
    out[i] = 1.0;
}
