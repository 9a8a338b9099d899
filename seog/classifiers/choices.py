"""Write the choices made on held-out data into a model file: which passes run after the nets,
and the margins that flag a block in doubt.

The passes a model keeps are in its file (``Model.passes``; ``status.model_passes``), so that a
reader and the passes chosen with it travel together. ``docs/trials.md`` gives the held-out figures
behind each choice (``python -m seog.datasets.heldout``).

    python -m seog.classifiers.choices seog/models/default.npz --passes eyespace \\
        --refiner-margin 0.25 --cascade-margin 0 --save seog/models/default.npz
"""

from __future__ import annotations

import argparse
import sys

from seog.classifiers import model_file


def apply(model: model_file.Model, passes: list[str] | None = None, refiner_margin: float | None = None,
          cascade_margin: float | None = None, name: str | None = None,
          description: str | None = None, calibration: float | None = None,
          part_margin: float | None = None, flag_margin: float | None = None) -> model_file.Model:
    """``model`` with the passes it keeps, its margins, name and description set (None: left as
    they are)."""
    from seog.classifiers.status import later_passes

    known = [str(name) for name, _ in later_passes()]
    if passes is not None:
        if unknown := sorted(set(passes) - set(known)):
            raise ValueError(f"unknown passes {unknown}: the passes are {', '.join(known)}")
        model.passes = tuple(name for name in known if name in passes)  # in the order they run
    if refiner_margin is not None:
        model.refiner_margin = float(refiner_margin)
    if cascade_margin is not None:
        model.uncertain_margin = float(cascade_margin)
    if part_margin is not None:
        if model.refiner is None or not 0.0 <= part_margin <= 1.0:
            raise ValueError("a part margin needs a model with a refiner, and a margin in [0, 1]")
        model.part_margin = float(part_margin)
    if flag_margin is not None:
        if model.refiner is None or not 0.0 <= flag_margin <= model.refiner_margin:
            raise ValueError("a flag margin needs a model with a refiner, and a margin in [0, the refiner's margin]")
        model.flag_margin = float(flag_margin)
    if calibration is not None:
        if model.refiner is None or not calibration > 0:
            raise ValueError("a calibration factor needs a model with a refiner, and a factor above 0")
        model.refiner.calibration = float(calibration)
    if name is not None:
        model.meta["name"] = name
    if description is not None:
        model.meta["description"] = description
    return model


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.classifiers.choices", description=__doc__.splitlines()[0])
    p.add_argument("model", help="the model file to read")
    p.add_argument("--passes", help="the passes after the nets to keep, comma-separated ('' for none)")
    p.add_argument("--refiner-margin", type=float, help="run the refiner's symmetric mean when one pass leaves a "
                   "block's |p - 0.5| below this (and flag it, without --flag-margin)")
    p.add_argument("--flag-margin", type=float, help="flag a block when the refiner's |p - 0.5| is below this "
                   "(at most the refiner margin)")
    p.add_argument("--cascade-margin", type=float, help="flag a block when the cascade's |p - 0.5| is below this")
    p.add_argument("--part-margin", type=float,
                   help="flag a block when the cascade's p_alive and the refiner's lie further apart than this")
    p.add_argument("--calibration", type=float, help="the refiner's calibration factor (heldout's best_factor)")
    p.add_argument("--name", help="the model's name in the answers")
    p.add_argument("--description", help="one line on what the model is")
    p.add_argument("--save", required=True, help="where to write the model")
    args = p.parse_args(argv)
    passes = None if args.passes is None else [r.strip() for r in args.passes.split(",") if r.strip()]
    try:
        model = apply(model_file.load(args.model), passes, args.refiner_margin, args.cascade_margin,
                      args.name, args.description, args.calibration, args.part_margin, args.flag_margin)
        model_file.save(args.save, model)
    except (ValueError, model_file.ModelFileError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{args.save}: passes {'all' if model.passes is None else list(model.passes)}, refiner margin {model.refiner_margin}, "
          f"flag margin {model.flag_margin}, cascade margin {model.uncertain_margin}, part margin {model.part_margin}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
