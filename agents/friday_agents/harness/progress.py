"""How a long run shows its progress: one bar format and durations in a unit that fits.

The bar shows the work done of all, the elapsed time and the run's own estimate of the time
left (its postfix), never tqdm's rate-based estimate, which is wrong while a run's first
games are slower or faster than its later ones. A duration is "12.3 s", not "0.2 min".
"""

from __future__ import annotations

#: The bar: done of all, elapsed time and the run's estimate in the postfix.
#: (tqdm puts ", " before a postfix that is not empty.)
BAR_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]"


def format_duration(seconds: float) -> str:
    """``seconds`` for people: ``4 ms``, ``12.3 s``, ``1.5 min``, ``1.5 h``."""
    if seconds < 0.1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 60:
        return f"{seconds:.1f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"
