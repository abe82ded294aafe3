// expect: 2:1: enum `E`: the discriminant of `A` is 4294967296, which does not fit the i32 tag of an enum with fields
pub enum E { A(u32) = 4294967296, B }
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let e = E::B;
}
