// expect: 6:5: writing a `static mut` shared array is unsafe and requires an `unsafe` block
#[kernel]
pub fn k(x: &[f32]) {
    static mut TILE: SharedArray<f32, 256> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    TILE[t] = x[t];
}
