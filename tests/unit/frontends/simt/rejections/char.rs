// expect: 4:13: no operator `+` for `char`
#[kernel]
pub fn k(n: u32) {
    let c = 'a' + 1;
}
