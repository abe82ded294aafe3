// Vector add in the cutile-rs style: each tile block adds one S-element tile of x and y into its own tile
// of z. The grid is the partition grid of z (ceil(len / S) blocks); the last tile is masked at the edge.
#[cutile::module]
pub mod vecadd {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn add<const S: [i32; 1]>(z: &mut Tensor<f32, S>, x: &Tensor<f32, {[-1]}>, y: &Tensor<f32, {[-1]}>) {
        let a = load_tile_like_1d(x, z);
        let b = load_tile_like_1d(y, z);
        z.store(a + b);
    }
}
