// expect: 4:17: cannot find value `missing` in this scope
#[kernel]
pub fn k(a: f32) {
    let c = a + missing;
}
