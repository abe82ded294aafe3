// expect: 9:23: unions are not supported in device code (`Bits` is a union)
#[repr(C)]
union Bits {
    word: u32,
    bytes: [u8; 4],
}
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    out[0] = unsafe { Bits { word: 7 }.word };
}
