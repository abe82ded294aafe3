// expect: 5:9: this pattern is refutable
#[kernel]
pub fn k(a: u32) {
    let o: Option<u32> = Some(a);
    let Some(x) = o;
}
