// expect: 4:9: a tuple pattern of 2 cannot match a value of type (u32, u32, u32)
#[kernel]
pub fn k(a: u32) {
    let (x, y) = (a, a, a);
}
