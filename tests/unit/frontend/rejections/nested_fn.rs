// expect: 4:5: an item declared inside a function body is not supported in device code
#[kernel]
pub fn k(n: u32) {
    fn inner() -> u32 { 1 }
    let x = inner();
}
