"""SGF in and out: the rest of seog sees ``Game`` objects, never SGF properties.

The names the rest of seog uses, from the modules that do each job:

    sgf_read    bytes to sgfmill's coarse tree: seog's own tokenizer, the file's limits, its encoding
    replay      the tree's main line replayed into a ``Game`` (``load``, ``loads``)
    sgf_write   the tree back to bytes (``serialise``), and the checks that a copy reads back
    sgf_copy    the scored copy of a game (``with_score``)

A file holding several games is refused, so that none is silently dropped.
"""

from seog.features.replay import SEOG_COMMENT, Game, load, loads, read_limited
from seog.features.sgf_copy import with_score
from seog.features.sgf_read import MAX_BYTES, MAX_NODES, MAX_VALUES, SgfError, parse_collection
from seog.features.sgf_write import serialise

__all__ = ["MAX_BYTES", "MAX_NODES", "MAX_VALUES", "SEOG_COMMENT", "Game", "SgfError", "load", "loads",
           "parse_collection", "read_limited", "serialise", "with_score"]
