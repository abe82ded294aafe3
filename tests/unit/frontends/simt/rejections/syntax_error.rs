// expect: 4:16: syntax error: expected `identifier`
#[kernel]
pub fn k(a: f32) {
    let b = a + ;
}
