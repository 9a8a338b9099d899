"""Model files: the trained cascade that the scoring path loads and runs with numpy alone.

A model file is a small ``.npz``: each net's weight matrices and bias vectors as plain float
arrays (``net{k}_w{l}``, ``net{k}_b{l}``), the static feature names and one JSON string
(``meta``) holding the cascade layout, the min/max scaler (``features.scaling.Scaler.to_dict``),
the ``uncertain`` margin and how the model was trained. A model may also carry the ownership
refiner (``classifiers.refiner``) as ``refiner_*`` float32 arrays, its shape and margin in
``meta["refiner"]``, and the passes after the nets it keeps in ``meta["passes"]``. It is read with ``allow_pickle=False``, so
loading a file never runs code from it. A file's margins are the model's; a file that names none
gets the passes' settings' (``classifiers.settings.DEFAULT``: ``cascade_margin``,
``refiner_margin``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from seog.classifiers.mlp import Net
from seog.classifiers.refiner import NEVER_PARTED, Refiner
from seog.classifiers.settings import DEFAULT
from seog.features.scaling import Scaler, ScalerError

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODELS_DIR / "default.npz"
FORMAT, VERSION = "seog-cascade", 1
N_DYNAMIC = 7  # predicted statuses fed to every net after the first
PASSES_KEYS = ("passes", "rules")  # where a file's meta may name the passes it keeps; save writes the first


class ModelFileError(ValueError):
    """A model file that cannot be read, or a model that does not hold together."""


@dataclass(eq=False)
class Model:
    """A cascade of nets with what is needed to feed them.

    ``nets[0]`` takes the static features named in ``feature_names``, mapped to [0, 1] by the
    training set's min/max ``scaler``; every later net takes
    the same features followed by the ``N_DYNAMIC`` slot means of the previous net's predictions.
    A block whose probability ``p`` of being alive has ``|p - 0.5| < uncertain_margin`` is flagged
    uncertain. ``refiner``, when present, reads the whole board after the cascade and has the last
    word (one pass within ``refiner_margin`` of 0.5 runs its symmetric mean; ``flag_margin``,
    None for the same, flags its doubts; ``part_margin`` flags a block where the cascade's
    probability and the refiner's lie further apart than it, 1 for never). ``passes``: the
    passes after the nets the model keeps, chosen with its reader on held-out data (None: every
    pass). ``meta`` records how the model was trained, as its file holds it.
    """

    nets: list[Net]
    feature_names: list[str]
    scaler: Scaler
    uncertain_margin: float = DEFAULT.cascade_margin
    meta: dict = field(default_factory=dict)
    refiner: Refiner | None = None
    refiner_margin: float = DEFAULT.refiner_margin
    part_margin: float = NEVER_PARTED
    flag_margin: float | None = None
    passes: tuple[str, ...] | None = None

    def __post_init__(self):
        n = len(self.feature_names)
        if not self.nets:
            raise ModelFileError("a model needs at least one net")
        if len(self.scaler.minimum) != n:
            raise ModelFileError(f"the scaler has {len(self.scaler.minimum)} columns for {n} features")
        for k, net in enumerate(self.nets):
            want = n if k == 0 else n + N_DYNAMIC
            if net.n_inputs != want:
                raise ModelFileError(f"net {k + 1} of the cascade takes {net.n_inputs} inputs, expected {want}")
        if not 0.0 <= self.uncertain_margin <= 0.5:
            raise ModelFileError(f"the uncertain margin must lie in [0, 0.5], got {self.uncertain_margin}")
        if not 0.0 <= self.refiner_margin <= 0.5:
            raise ModelFileError(f"the refiner's uncertain margin must lie in [0, 0.5], got {self.refiner_margin}")
        if self.flag_margin is not None and not 0.0 <= self.flag_margin <= self.refiner_margin:
            raise ModelFileError(f"the flag margin must lie in [0, the refiner's margin {self.refiner_margin}], "
                                 f"got {self.flag_margin}")
        if not 0.0 <= self.part_margin <= NEVER_PARTED:
            raise ModelFileError(f"the part margin must lie in [0, 1], got {self.part_margin}")

    @property
    def layout(self) -> list[list[int]]:
        """Unit counts of every net, e.g. ``[[33, 32, 1], [40, 32, 1]]``."""
        return [net.sizes for net in self.nets]

    def scale(self, x: np.ndarray) -> np.ndarray:
        """Static features mapped by the training set's min/max to [0, 1] (constant features to 0)."""
        return self.scaler.transform(x)


def save(path, model: Model) -> Path:
    """Write ``model`` to ``path`` (a ``.npz``); returns the path written."""
    path = Path(path)
    meta = dict(model.meta, format=FORMAT, version=VERSION, layout=model.layout,
                scaler=model.scaler.to_dict(), uncertain_margin=float(model.uncertain_margin))
    meta.pop("refiner", None)
    for key in PASSES_KEYS:
        meta.pop(key, None)
    if model.passes is not None:
        meta[PASSES_KEYS[0]] = list(model.passes)
    if model.refiner is not None:
        meta["refiner"] = dict(model.meta.get("refiner", {}), layers=model.refiner.layers,
                               channels=model.refiner.channels, margin=float(model.refiner_margin),
                               part_margin=float(model.part_margin))
        meta["refiner"].pop("flag_margin", None)
        if model.flag_margin is not None:
            meta["refiner"]["flag_margin"] = float(model.flag_margin)
    arrays = {"feature_names": np.array(model.feature_names, dtype=str),
              "meta": np.array(json.dumps(meta, sort_keys=True))}
    for k, net in enumerate(model.nets):
        for j, (w, b) in enumerate(zip(net.weights, net.biases)):
            arrays[f"net{k}_w{j}"] = np.asarray(w, dtype=np.float64)
            arrays[f"net{k}_b{j}"] = np.asarray(b, dtype=np.float64)
    if model.refiner is not None:
        arrays.update({f"refiner_{name}": a for name, a in model.refiner.arrays().items()})
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    return path


def cascade_sha1(model: Model) -> str:
    """A fingerprint of the cascade alone (features, scaler, weights), whatever refiner rides along:
    a refiner is trained on one cascade's verdicts and belongs to it."""
    import hashlib  # for training and checks only: scoring never pays for its import

    h = hashlib.sha1(json.dumps([model.feature_names, model.scaler.to_dict()], sort_keys=True).encode())
    for net in model.nets:
        for a in (*net.weights, *net.biases):
            h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    return h.hexdigest()


def read_arrays(path, what: str, error: type[Exception]) -> dict[str, np.ndarray]:
    """All arrays of an ``.npz`` file, read without unpickling anything; a missing file raises
    FileNotFoundError, an unreadable one ``error`` naming ``what`` it should have been."""
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise
    except (OSError, ValueError) as exc:
        raise error(f"{path} is not a readable {what}: {exc}") from None


def load(path) -> Model:
    """Read a model file written by ``save``; a clear ``ModelFileError`` for anything else."""
    path = Path(path)
    arrays = read_arrays(path, "model file", ModelFileError)
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except KeyError:
        raise ModelFileError(f"{path} has no 'meta' entry: not a seog model file") from None
    except json.JSONDecodeError as exc:
        raise ModelFileError(f"{path}: the metadata is not valid JSON ({exc})") from None
    if meta.get("format") != FORMAT:
        raise ModelFileError(f"{path} is not a seog model file (format {meta.get('format')!r})")
    if meta.get("version") != VERSION:
        raise ModelFileError(f"{path} has model format version {meta.get('version')}, this seog reads {VERSION}")
    try:
        nets = []
        for k, sizes in enumerate(meta["layout"]):
            layers = len(sizes) - 1
            nets.append(Net([arrays[f"net{k}_w{j}"].astype(np.float64) for j in range(layers)],
                            [arrays[f"net{k}_b{j}"].astype(np.float64) for j in range(layers)]))
            if nets[-1].sizes != list(sizes):
                raise ModelFileError(f"{path}: net {k + 1} has units {nets[-1].sizes}, the layout says {sizes}")
        names = [str(s) for s in arrays["feature_names"]]
        scaler = Scaler.from_dict(meta["scaler"])
        refiner, refiner_margin, part_margin, flag_margin = None, DEFAULT.refiner_margin, NEVER_PARTED, None
        if "refiner" in meta:
            prefix = "refiner_"
            refiner = Refiner.from_arrays({k[len(prefix):]: a for k, a in arrays.items() if k.startswith(prefix)},
                                          int(meta["refiner"]["layers"]))
            refiner_margin = float(meta["refiner"].get("margin", DEFAULT.refiner_margin))
            part_margin = float(meta["refiner"].get("part_margin", NEVER_PARTED))
            if "flag_margin" in meta["refiner"]:
                flag_margin = float(meta["refiner"]["flag_margin"])
        return Model(nets, names, scaler, float(meta.get("uncertain_margin", DEFAULT.cascade_margin)), meta,
                     refiner, refiner_margin, part_margin, flag_margin, passes_in(meta))
    except KeyError as exc:
        raise ModelFileError(f"{path} lacks the entry {exc}") from None
    except ModelFileError:
        raise
    except (ValueError, TypeError, ScalerError) as exc:
        raise ModelFileError(f"{path}: {exc}") from None


def passes_in(meta: dict) -> tuple[str, ...] | None:
    """The passes a file's meta keeps, under ``passes`` or its other key ``rules`` (which
    ``models/default.npz`` uses); None where it names none."""
    for key in PASSES_KEYS:
        if key in meta:
            return tuple(str(name) for name in meta[key])
    return None


def load_default() -> Model | None:
    """The model shipped inside the package, or None while none is shipped."""
    if not DEFAULT_MODEL.exists():
        return None
    return load(DEFAULT_MODEL)
