"""A rule for a seki inside one group's only eye space: opponent blocks called dead inside a
region of a few empty points, enclosed by blocks called alive that have no liberty outside it,
are alive when neither side, moving first, can capture the other (the capture search,
``features.reading``). Run after the model's rules; prints, per side, the finished positions
wrong against KataGo's read before and after, and those it puts right and wrong.

    python experiments/inner_seki_trial.py --model seog/models/default.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --side hash                 # 1 min
    python experiments/inner_seki_trial.py --model seog/models/default.npz --planes cache/planes-small.npz --side all
"""

from __future__ import annotations

from seog.classifiers import model_file, planes_cache
from seog.classifiers.vocabulary import BY_NETS, Source, redecide
from seog.datasets.heldout import any_wrong, finished_statuses, side_parser
from seog.features.reading import ESCAPE, Budget, Reader

NODES = 1000  # positions a search (the shipped 70 run out on the shape this rule is for)


def takes(reader: Reader, points) -> bool | None:
    """Does the opponent of the block at ``points``, moving first, capture it? None when the
    search runs out of budget."""
    target = reader.flat(points[0])
    color = reader.start[target]
    reader.left, reader.table = reader.nodes, {}  # each search its own budget
    try:
        return reader._search(reader.start, target, 3 - color, 3 - color, -1, reader.depth) is True
    except Budget:
        return None


def inner_seki_alive(topology, statuses):
    """``statuses`` with the inner blocks of a seki in one group's only eye space alive."""
    revived, reader = {}, None
    for color in (1, -1):
        for cer in topology.cers[color]:
            if not cer.inner_blocks or len(cer.empty) >= ESCAPE:
                continue
            inner = [topology.blocks[b] for b in cer.inner_blocks]
            outer = [topology.blocks[b] for b in cer.blocks]
            if not all(not statuses[b.id].alive and statuses[b.id].source in BY_NETS for b in inner):
                continue
            if not all(statuses[b.id].alive for b in outer):
                continue
            room = set(cer.points.tolist())
            if not all(set(b.liberties.tolist()) <= room for b in outer):
                continue
            reader = reader or Reader(topology.grid, nodes=NODES, total=NODES)
            verdicts = [takes(reader, b.points) for b in inner + outer]
            if all(v is False for v in verdicts):
                revived.update(dict.fromkeys((b.id for b in inner), True))
    return redecide(statuses, revived, Source.SEKI)


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    args = p.parse_args()
    data = planes_cache.load(args.planes)
    outcomes = []  # (name, wrong before, wrong after, a verdict turned)
    for row, topology, truth, statuses in finished_statuses(model_file.load(args.model), data, args.side):
        after = inner_seki_alive(topology, statuses)
        outcomes.append((str(data["names"][row]), any_wrong(topology, statuses, truth), any_wrong(topology, after, truth),
                         any(after[b].alive != st.alive for b, st in statuses.items())))
    put_right = [name for name, was, now, _ in outcomes if was and not now]
    put_wrong = [name for name, was, now, _ in outcomes if now and not was]
    print(f"{args.side}: {len(outcomes)} finished positions, the rule turns a block in {sum(o[3] for o in outcomes)}; "
          f"wrong {sum(o[1] for o in outcomes)} -> {sum(o[2] for o in outcomes)}; put right {put_right}; put wrong {put_wrong}")


if __name__ == "__main__":
    main()
