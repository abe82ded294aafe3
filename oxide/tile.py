"""`oxide.tile`: the host API of tile kernels (partitions of output arrays); runtime-only, no compiler."""

from oxide.runtime.random import rand, randn
from oxide.runtime.tile import MappedPartition, Partition, partition

__all__ = ["MappedPartition", "Partition", "partition", "rand", "randn"]
