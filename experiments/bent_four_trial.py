"""Where the Japanese ruling on bent four in the corner meets the training archives: every
finished position's eye spaces that are the bent four in the corner, whether their group is read
alive (and by KataGo's read), has another eye and is shut in, and the positions the ruling turns
(``scoring.rulings``, after the model's rules).

    python experiments/bent_four_trial.py --model seog/models/default.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz --side all                                          # 2 min
"""

from __future__ import annotations

from collections import Counter

from seog.classifiers import model_file, planes_cache
from seog.datasets.heldout import finished_statuses, side_parser
from seog.scoring.rules import RULES
from seog.scoring.rulings import (
    bent_four_in_the_corner,
    group_of,
    is_bent_four_in_the_corner,
    other_eyes,
    shut_in,
)


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    args = p.parse_args()
    data = planes_cache.load(args.planes)
    kinds, turned, positions = Counter(), [], 0
    for row, topology, truth, statuses in finished_statuses(model_file.load(args.model), data, args.side):
        positions += 1
        alive = {b: st.alive for b, st in statuses.items()}
        for color in (1, -1):
            for cer in topology.cers[color]:
                if is_bent_four_in_the_corner(topology, cer):
                    group = group_of(topology, cer)
                    kinds[(all(alive[b] for b in group), all(truth[b] for b in group),
                           other_eyes(topology, color, group, cer, alive),
                           shut_in(topology, color, group, cer, alive))] += 1
        listed = [statuses[b.id] for b in topology.blocks]
        if bent_four_in_the_corner(topology, listed, RULES["japanese"]) is not listed:
            turned.append(str(data["names"][row]))
    print(f"{args.side}: {positions} finished positions; turned by the ruling: {turned}")
    for (read, teacher, other, shut), n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        print(f"  {n} groups around a bent four in the corner: read {'alive' if read else 'dead'}, "
              f"KataGo {'alive' if teacher else 'dead'}, {'another eye' if other else 'no other eye'}, "
              f"{'shut in' if shut else 'not shut in'}")


if __name__ == "__main__":
    main()
