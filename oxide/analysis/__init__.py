"""oxide.analysis: pure analyses over oxide IR (aliasing, ownership, uniformity); they never mutate IR."""
