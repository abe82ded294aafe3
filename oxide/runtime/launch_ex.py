"""Extended launches through `cuLaunchKernelEx`: thread-block clusters (`#[cluster_launch]`, the cluster
dimension launch attribute) and cooperative launches (`#[cooperative_launch]`, the cooperative attribute).

Both are checked before the first launch of a configuration, so a bad one is a LaunchContractError naming
what does not fit, never a driver error or a hang: the grid must be a whole number of clusters and at least
one cluster must fit on the device (`cuOccupancyMaxActiveClusters`); a cooperative grid must be co-resident
(`cuOccupancyMaxActiveBlocksPerMultiprocessor` x the SM count), or its grid barrier would wait forever.

A cooperative launch gets its own grid-barrier workspace (two zeroed u32 words, allocated and freed in stream
order around the launch) as the kernel's hidden last parameter: two cooperative launches running at once
never share a barrier.
"""

from __future__ import annotations

import math
from typing import Any

from oxide.runtime.config import LaunchConfig
from oxide.runtime.driver import check, cuda, raise_for
from oxide.runtime.errors import LaunchContractError
from oxide.runtime.signature import KernelSpec

WORKSPACE_BYTES = 8  # the grid barrier's arrival count and generation


def check_cluster_shape(spec: KernelSpec, config: LaunchConfig) -> None:
    """The grid must be a whole number of clusters along every axis."""
    if spec.cluster and any(g % c for g, c in zip(config.grid, spec.cluster)):
        raise LaunchContractError(spec.name, "grid", f"a multiple of the cluster shape {tuple(spec.cluster)} "
                                  "along every axis (#[cluster_launch])", tuple(config.grid))


class ExtendedLaunch:
    """One checked configuration of a cluster or cooperative kernel, ready to launch many times."""

    def __init__(self, fn: Any, device: Any, config: LaunchConfig):
        drv = cuda()
        spec: KernelSpec = fn.kernel
        self.fn, self.spec = fn, spec
        check_cluster_shape(spec, config)
        launch = drv.CUlaunchConfig()
        launch.gridDimX, launch.gridDimY, launch.gridDimZ = config.grid
        launch.blockDimX, launch.blockDimY, launch.blockDimZ = config.block
        launch.sharedMemBytes = config.shared_mem_bytes
        attributes = []
        if spec.cluster:
            cluster = drv.CUlaunchAttribute()
            cluster.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION
            cluster.value.clusterDim.x, cluster.value.clusterDim.y, cluster.value.clusterDim.z = spec.cluster
            attributes.append(cluster)
        if spec.cooperative:
            cooperative = drv.CUlaunchAttribute()
            cooperative.id = drv.CUlaunchAttributeID.CU_LAUNCH_ATTRIBUTE_COOPERATIVE
            cooperative.value.cooperative = 1
            attributes.append(cooperative)
        launch.attrs, launch.numAttrs = attributes, len(attributes)
        self.config = launch
        if spec.cluster:
            self._check_cluster_fits(config)
        if spec.cooperative:
            self._check_co_resident(device, config)

    def _check_cluster_fits(self, config: LaunchConfig) -> None:
        fits = int(check(cuda().cuOccupancyMaxActiveClusters(self.fn.handle, self.config),
                         "cuOccupancyMaxActiveClusters", self.spec.name))
        self.active_clusters = fits  # how many clusters of this configuration the device runs at once
        if fits < 1:
            raise LaunchContractError(
                self.spec.name, "cluster", f"a cluster of {math.prod(self.spec.cluster)} blocks that fits on the "
                "device", f"none fits with {math.prod(config.block)} threads and {config.shared_mem_bytes} bytes of "
                "dynamic shared memory per block", "use smaller blocks, less shared memory or a smaller cluster")

    def _check_co_resident(self, device: Any, config: LaunchConfig) -> None:
        threads = math.prod(config.block)
        per_sm = int(check(cuda().cuOccupancyMaxActiveBlocksPerMultiprocessor(self.fn.handle, threads,
                                                                                config.shared_mem_bytes),
                           "cuOccupancyMaxActiveBlocksPerMultiprocessor", self.spec.name))
        resident = per_sm * device.attribute("MULTIPROCESSOR_COUNT")
        blocks = math.prod(config.grid)
        if blocks > resident:
            raise LaunchContractError(
                self.spec.name, "grid", f"at most {resident} blocks for a cooperative launch ({per_sm} per "
                f"multiprocessor with {threads} threads and {config.shared_mem_bytes} bytes of dynamic shared "
                "memory, all co-resident for grid::sync)", blocks, "launch fewer blocks and loop over the work")

    def launch(self, abi: list[Any], stream: Any) -> None:
        """Pack `abi` (plus the workspace of a cooperative kernel) and launch on `stream` (None: the default)."""
        drv = cuda()
        handle = stream if stream is not None else 0
        workspace = None
        if self.spec.cooperative:
            workspace = check(drv.cuMemAllocAsync(WORKSPACE_BYTES, handle), "allocating the grid-barrier workspace",
                              self.spec.name)
            check(drv.cuMemsetD32Async(workspace, 0, WORKSPACE_BYTES // 4, handle),
                  "zeroing the grid-barrier workspace", self.spec.name)
            abi = [*abi, int(workspace)]
        self.fn.parameters.pack(abi)
        self.config.hStream = handle
        (err,) = drv.cuLaunchKernelEx(self.config, self.fn.handle, self.fn.params_address, 0)
        if workspace is not None:
            # Stream-ordered: freed after the kernel finishes, whether or not it launched.
            check(drv.cuMemFreeAsync(workspace, handle), "freeing the grid-barrier workspace", self.spec.name)
        if err != 0:
            raise_for(err, "the launch", self.spec.name)
