// expect: 4:13: a range value other than `a..b`
#[kernel]
pub fn k(n: u32) {
    let r = n..;
}
