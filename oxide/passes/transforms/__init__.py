"""oxide's transform passes (same dialect in and out). Importing this package registers them."""

from oxide.passes.transforms import tile_prefetch  # noqa: F401
from oxide.passes.transforms import verify  # noqa: F401
from oxide.passes.transforms import verify_aliasing  # noqa: F401
from oxide.passes.transforms import version_bounds_checks  # noqa: F401
