"""scipy's compiled cores, loaded without the Python packages around them.

Importing ``scipy.ndimage``, ``scipy.sparse`` or ``scipy.linalg`` costs more than scoring a
position (their array-API layer and numpy.f2py); the three extension modules seog calls (the
labeller, the CSR products, BLAS's sgemm) load in a small part of that (docs/benchmarks.md,
"Starting a command"). Where one cannot be
found this way (another scipy layout), the public package is imported instead.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
from pathlib import Path


def extension(package: str, module: str):
    """``scipy.<package>.<module>``, a compiled module, loaded from its file alone; through the
    package's import when the file is not where scipy keeps it."""
    name = f"scipy.{package}.{module}"
    if name in sys.modules:
        return sys.modules[name]
    try:
        folder = Path(importlib.util.find_spec("scipy").origin).parent / package
        path = next(folder / f"{module}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES
                    if (folder / f"{module}{suffix}").exists())
        loader = importlib.machinery.ExtensionFileLoader(name, str(path))
        loaded = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, path, loader=loader))
        loader.exec_module(loaded)
        sys.modules[name] = loaded  # the package, if imported later, takes this one
        return loaded
    except Exception:  # noqa: BLE001 - any other layout: the ordinary import
        return importlib.import_module(name)
