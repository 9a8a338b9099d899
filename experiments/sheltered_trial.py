"""A rule that brings back blocks called dead that no living opponent can reach: a block called
dead (not for being in atari) whose opponent neighbours are all dead, and whose empty regions
border no living opponent stone and at least one living stone of its own, sits among its own
stones and the opponent's prisoners; the static pass's ``capturers-dead`` asks the same of the
neighbours alone. Run after the model's rules; prints, per side, the finished positions wrong
against KataGo's read before and after, and those it puts right and wrong.

    python experiments/sheltered_trial.py --model seog/models/default.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --side hash                 # 1 min
    python experiments/sheltered_trial.py --model seog/models/default.npz --planes cache/planes-small.npz --side all
"""

from __future__ import annotations

from seog.classifiers import model_file, planes_cache
from seog.classifiers.vocabulary import Source, redecide
from seog.datasets.heldout import any_wrong, finished_statuses, side_parser


def sheltered_alive(topology, statuses):
    """``statuses`` with the blocks called dead that no living opponent reaches alive."""
    revived = {}
    for block in topology.blocks:
        st = statuses[block.id]
        if st.alive or st.source == Source.ATARI or not block.regions:
            continue
        if any(statuses[o].alive for o in block.opponents):
            continue
        borders = [topology.blocks[b] for r in block.regions for b in topology.regions[r].blocks]
        if (not any(b.color != block.color and statuses[b.id].alive for b in borders)
                and any(b.color == block.color and statuses[b.id].alive for b in borders)):
            revived[block.id] = True
    return redecide(statuses, revived, Source.CAPTURERS_DEAD)


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    args = p.parse_args()
    data = planes_cache.load(args.planes)
    outcomes = [(str(data["names"][row]), any_wrong(topology, statuses, truth),
                 any_wrong(topology, sheltered_alive(topology, statuses), truth))
                for row, topology, truth, statuses in finished_statuses(model_file.load(args.model), data, args.side)]
    put_right = [name for name, was, now in outcomes if was and not now]
    put_wrong = [name for name, was, now in outcomes if now and not was]
    print(f"{args.side}: {len(outcomes)} finished positions, wrong {sum(was for _, was, _ in outcomes)} -> "
          f"{sum(now for *_, now in outcomes)}; put right {put_right}; put wrong {put_wrong}")


if __name__ == "__main__":
    main()
