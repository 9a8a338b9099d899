"""The enclosed-eyes rule without its walled-in condition, tried after the shipped rules: a group
the reader calls dead that encloses alone two regions of at most MAX points that are not false
eyes is alive, whatever liberties it has outside them, and the opponent stones in them dead. Does
the reader kill groups with two plain eyes? Counts the finished positions each variant puts right
and wrong against KataGo's read.

    python experiments/two_eyes_trial.py --planes cache/planes-more.npz cache/planes-train.npz \
        cache/planes-selfplay.npz --side hash
    python experiments/two_eyes_trial.py --planes cache/planes-small.npz --side all

The shipped rule (``eyespace.enclosed_alive``) also asks that every liberty of the group lie in
those eyes, so that the opponent can only play inside them; it is off, as it changes nothing on
the held-out sides (docs/trials.md, "Which rules run, and why").
"""

from __future__ import annotations

from seog.classifiers import model_file, planes_cache
from seog.classifiers.eyespace import _dead_groups, _false_eye_region
from seog.classifiers.vocabulary import Source, redecide
from seog.datasets.heldout import any_wrong, finished_statuses, side_parser

VARIANTS = [(2, True), (3, True), (8, True), (3, False), (8, False)]  # (MAX points, eyes without stones only)


def two_eyed_alive(topology, statuses: dict, max_eye: int, empty_only: bool) -> dict:
    """``statuses`` with every group called dead that has two real eyes of ``max_eye`` points or
    fewer (with no stone in them when ``empty_only``) alive."""
    alive = [statuses[b.id].alive for b in topology.blocks]
    turned: dict[int, bool] = {}
    for color, blocks, enclosed in _dead_groups(topology, statuses):
        eyes = [c for c in enclosed if len(c.points) <= max_eye and not (empty_only and c.inner_blocks)]
        real = [c for c in eyes if not _false_eye_region(topology, c, color, alive)]
        if len(real) >= 2:
            turned.update(dict.fromkeys(blocks, True))
            turned.update({o: False for c in real for o in c.inner_blocks})
    return redecide(statuses, turned, Source.EYES)


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    args = p.parse_args()
    model = model_file.load(args.model)
    data = planes_cache.load(args.planes)
    fixed, broken, wrong, positions = dict.fromkeys(VARIANTS, 0), dict.fromkeys(VARIANTS, 0), 0, 0
    for _, topology, truth, shipped in finished_statuses(model, data, args.side):
        was_wrong = any_wrong(topology, shipped, truth)
        wrong += was_wrong
        positions += 1
        for variant in VARIANTS:
            is_wrong = any_wrong(topology, two_eyed_alive(topology, shipped, *variant), truth)
            fixed[variant] += was_wrong and not is_wrong
            broken[variant] += is_wrong and not was_wrong
    print(f"{args.side}: {positions} finished positions, {wrong} wrong as shipped")
    for variant in VARIANTS:
        print(f"  eyes of {variant[0]} points at most{', empty' if variant[1] else ''}: "
              f"{fixed[variant]} put right, {broken[variant]} put wrong")


if __name__ == "__main__":
    main()
