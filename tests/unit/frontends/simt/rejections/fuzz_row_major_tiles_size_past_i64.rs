// expect: 4:50: `RowMajorTiles` size 9223372036854775808 is out of range
#[kernel(launch_context = lc)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn k(mut m: DisjointSlice<f32, RowMajorTiles<9223372036854775808i64, 2, 64>>) {
    let coord = thread::coord_2d_u32(lc);
    if let Some(mut t) = m.tile_2d32(coord) {
        let x = t.at_const::<0, 0>().read();
    }
}
