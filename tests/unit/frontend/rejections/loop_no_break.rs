// expect: 4:5: a `loop` without `break` never ends
#[kernel]
pub fn k(n: u32) {
    loop {
        let x = n + 1;
    }
}
