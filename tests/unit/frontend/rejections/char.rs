// expect: 4:13: the `char` type is not supported in device code
#[kernel]
pub fn k(n: u32) {
    let c = 'a';
}
