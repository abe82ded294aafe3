"""oxide.runtime: load compiled kernel artifacts and launch them with cuda-python; imports nothing of the compiler."""
