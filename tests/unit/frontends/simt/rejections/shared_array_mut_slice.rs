// expect: 9:14: `&mut [f32]` of an array in shared memory is not supported
fn bump(s: &mut [f32]) { s[0] += 1.0; }
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    static mut TILE: SharedArray<[f32; 8], 2> = SharedArray::UNINIT;
    let idx = thread::index_1d();
    unsafe {
        TILE[0][0] = 1.0;
        bump(&mut TILE[1]);
    }
}
