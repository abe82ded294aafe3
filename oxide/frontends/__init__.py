"""oxide.frontends: Rust-syntax frontends (rust/ for SIMT kernels, tile/ for tile kernels) emitting oxide IR."""
