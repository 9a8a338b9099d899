"""seog: Score End Of Game.

``seog.score(game, rules=..., komi=...)`` scores a game in this process (``seog.api.library``),
imported when first asked for, so that ``import seog`` stays light.
"""

import os
from functools import cache

CLIP = 40  # an error message quotes at most this many characters of any one input


def clip(text: str, limit: int = CLIP) -> str:
    """At most ``limit`` characters of the user's text, '...' after a cut: what an error message
    quotes of an input, so that a 900 KB SGF value does not come back whole."""
    return text if len(text) <= limit else text[:limit] + "..."


def cores() -> int:
    """The CPU cores this process may run on (its affinity where the OS says, else all): how many
    counts or worker processes to run at once by default."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


@cache
def installed_version() -> str:
    """seog's version as installed ('dev' for a tree that is not): what the API, its /health and
    the GTP referee's ``version`` answer."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("seog")
    except PackageNotFoundError:
        return "dev"


def __getattr__(name: str):
    """``seog.score``, imported on first use (the scorer and pydantic take ~0.3 s to import)."""
    if name == "score":
        from seog.api.library import score
        return score
    raise AttributeError(f"module 'seog' has no attribute {name!r}")
