// expect: 4:38: `tile_2d32` takes a 2-D thread coordinate (`thread::coord_2d_u32(..)`), not `ThreadIndex<Index1D>`
#[kernel]
pub fn k(mut m: DisjointSlice<f32, RowMajorTiles<1, 2, 64>>) {
    if let Some(mut t) = m.tile_2d32(thread::index_1d()) {
        t.at_const::<0, 0>().write(1.0);
    }
}
