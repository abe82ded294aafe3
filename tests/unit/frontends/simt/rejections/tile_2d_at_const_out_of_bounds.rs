// expect: 7:17: index (1, 0) is out of bounds for a 1 x 2 tile
#[kernel(launch_context = lc)]
#[launch_contract(domain = 2, coordinates = u32)]
pub fn k(mut m: DisjointSlice<f32, RowMajorTiles<1, 2, 64>>) {
    let coord = thread::coord_2d_u32(lc);
    if let Some(mut t) = m.tile_2d32(coord) {
        let x = t.at_const::<1, 0>().read();
    }
}
