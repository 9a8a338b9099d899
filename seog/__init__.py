"""seog: Score End Of Game."""

import os


def cores() -> int:
    """The CPU cores this process may run on (its affinity where the OS says, else all): how many
    counts or worker processes to run at once by default."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
