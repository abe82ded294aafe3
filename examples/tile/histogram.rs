// Histogram with pointer-tile atomics: each tile block reads 256 values and adds one to counts[value] for
// each, through `atomic_rmw_tko`. Atomics go through a raw `*mut i32`, so the kernel is `unsafe` (nothing
// checks what the pointer may overlap); it has no output partition, so the host states the grid.
#[cutile::module]
pub mod histogram {
    use cutile::core::*;

    #[cutile::entry()]
    pub unsafe fn histogram(counts: *mut i32, x: &Tensor<i32, {[-1]}>, n: i32) {
        let (bid, _, _) = get_tile_block_id();
        let values: Tile<i32, {[256]}> = x.partition(const_shape![256]).load([bid]);
        let index = iota::<i32>(const_shape![256]) + broadcast_scalar(bid * 256, const_shape![256]);
        let inside = lt_tile(index, broadcast_scalar(n, const_shape![256]));
        let bins = pointer_to_tile(counts).broadcast(const_shape![256]).offset_tile(values);
        let ones = constant(1i32, const_shape![256]);
        let (_old, _token) = atomic_rmw_tko(bins, ones, atomic::Add, ordering::Relaxed, scope::Device, inside,
                                            new_token_unordered());
    }
}
