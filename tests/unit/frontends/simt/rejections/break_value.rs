// expect: 5:9: `break` with a value is not supported
#[kernel]
pub fn k(n: u32) {
    let x = loop {
        break 5;
    };
}
