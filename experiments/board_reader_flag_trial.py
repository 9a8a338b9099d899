"""A second opinion from a reader that never sees the cascade: the shipped reader's recipe taught
with the status plane zeroed in every position (as ``experiments/no_cascade_trial.py``), then read
beside a model; a block is flagged when that reader gives the model's verdict less than ``t``
(``p_alive`` below ``t`` for a block called alive, above ``1 - t`` for one called dead), for
blocks of ``s`` stones or more. Prints, per side, the finished positions flagged and the wrong
ones flagged (against KataGo's read), as the model flags and with the second opinion.

    python experiments/board_reader_flag_trial.py --train runs/board-reader.npz --planes cache/planes-more.npz \\
        cache/planes-train.npz cache/planes-selfplay.npz --cascade runs/ecas-cascade.npz      # 8 min
    python experiments/board_reader_flag_trial.py --reader runs/board-reader.npz --model M --planes \\
        cache/planes-more.npz cache/planes-train.npz cache/planes-selfplay.npz --side hash   # 1 min
"""

from __future__ import annotations

import numpy as np
from stacked_cascade_trial import save_reader

from seog.classifiers import model_file, planes_cache
from seog.classifiers.refiner import N_INPUTS, block_p_alive, inputs, ownership, segments
from seog.datasets.heldout import any_wrong, finished_statuses, side_parser

MARGINS = (0.02, 0.05, 0.1, 0.2, 0.3)
STONES = (1, 3, 6)


def board_p_alive(reader, topology, statuses) -> np.ndarray:
    """Per block, the board reader's p_alive on a finished position (its status plane zeroed)."""
    seg, n_segments = segments(topology)
    x = inputs(topology, statuses)
    x[N_INPUTS - 1] = 0
    x = np.concatenate([x, np.ones((1,) + x.shape[1:], dtype=np.float32)])
    return block_p_alive(topology, ownership(reader, x, seg, n_segments))


def main() -> None:
    p = side_parser(__doc__.splitlines()[0])
    p.add_argument("--train", help="teach the board reader and save it here (with --cascade's nets beside it)")
    p.add_argument("--cascade", default="runs/ecas-cascade.npz", help="a cascade to save the reader with")
    p.add_argument("--reader", help="the board reader to measure with")
    args = p.parse_args()
    data = planes_cache.load(args.planes)
    if args.train:
        data["planes"][:, N_INPUTS - 1] = 0
        save_reader(data["planes"], data["segments"], data["ownership"], data["split"], data["finished"],
                    args.cascade, args.train, status_plane="zeroed")
        return
    reader = model_file.load(args.reader).refiner
    counts = {(t, s): [0, 0] for t in MARGINS for s in STONES}
    positions = wrong = flagged = wrong_flagged = 0
    for _, topology, truth, statuses in finished_statuses(model_file.load(args.model), data, args.side):
        p_board = board_p_alive(reader, topology, statuses)
        is_wrong = any_wrong(topology, statuses, truth)
        is_flagged = any(st.uncertain for st in statuses.values())
        positions += 1
        wrong += is_wrong
        flagged += is_flagged
        wrong_flagged += is_wrong and is_flagged
        for (t, s), tally in counts.items():
            now = is_flagged or any(
                b.size >= s and (p_board[b.id] < t if statuses[b.id].alive else p_board[b.id] > 1 - t)
                for b in topology.blocks)
            tally[0] += now
            tally[1] += is_wrong and now
    print(f"{args.side}: {positions} finished positions, {wrong} wrong; as the model flags "
          f"{flagged / positions:.1%}, {wrong_flagged} wrong")
    for (t, s), (now, caught) in counts.items():
        print(f"  t {t}, blocks of {s}+ stones: {now / positions:.1%} flagged, {caught} wrong")


if __name__ == "__main__":
    main()
