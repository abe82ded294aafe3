// expect: 4:40: `SharedArray` alignment 36893488147419103232 must be a power of two from 1 to 1024 bytes
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    static mut S: SharedArray<f32, 16, 36893488147419103232> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = 0.0; }
}
