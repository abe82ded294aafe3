// expect: 3:21: a kernel returns nothing
#[kernel]
pub fn k(a: f32) -> f32 {
    a
}
