// expect: 6:5: `wait` needs a `ManagedBarrier<Ready, _>`; this one is `ManagedBarrier<Uninit, GeneralBarrier>`
#[kernel]
pub fn k(n: u32) {
    static mut BAR: Barrier = Barrier::UNINIT;
    let bar = ManagedBarrier::<Uninit, GeneralBarrier>::from_static(&raw mut BAR);
    bar.wait(0);
}
