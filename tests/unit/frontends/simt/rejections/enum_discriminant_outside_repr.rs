// expect: 4:1: enum `Small`: the discriminant of `B` is 256, which does not fit its `#[repr(u8)]` (0 to 255)
#[repr(u8)]
#[derive(Clone, Copy)]
pub enum Small { A = 255, B }
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) { *o = Small::B as u32; }
}
