"""The Go Text Protocol: ``client`` (an engine in a subprocess), ``referee`` (seog as a GTP
referee, the front of ``seog gtp``) and ``match`` (two engines, refereed, as ``seog match`` plays
them). It scores with ``seog.scoring`` and imports nothing from ``api``, ``datasets`` or ``cli``."""
