"""The held-out recount: a count far from the players' result is found, and the winner it flips."""

from pathlib import Path

from seog.classifiers import model_file
from seog.datasets.recount import FAR, recount

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "gnugo-selfplay-19.sgf"


def _with_result(data: bytes, result: str) -> bytes:
    start = data.index(b"RE[") + 3
    return data[:start] + result.encode() + data[data.index(b"]", start):]


def test_count_of_a_game_is_compared_with_its_recorded_result():
    model = model_file.load(model_file.DEFAULT_MODEL)
    data = EXAMPLE.read_bytes()  # GNU Go self-play, recorded W+5.5, which seog counts
    games = [("same", data), ("far, other winner", _with_result(data, f"B+{FAR + 20}.5")),
             ("far, same winner", _with_result(data, f"W+{FAR + 20}.5")), ("resigned", _with_result(data, "B+R"))]
    figures = recount(games, model)
    assert figures["counted_games"] == 3  # the resigned game has no count to compare with
    assert figures["count_equals_record"] == round(1 / 3, 4)
    assert figures[f"off_by_more_than_{FAR}"] == 2 and figures["of_them_winner_flipped"] == 1
    assert {g["game"] for g in figures["far_games"]} == {"far, other winner", "far, same winner"}


def test_recount_with_given_dead_stones_counts_those():
    import numpy as np

    model = model_file.load(model_file.DEFAULT_MODEL)
    data = EXAMPLE.read_bytes()
    none_dead = recount([("g", data)], model, dead_by=lambda game, raw, gid: np.zeros((19, 19), dtype=bool))
    ours = recount([("g", data)], model)
    assert ours["count_equals_record"] == 1.0
    assert none_dead["counted_games"] == 1 and none_dead["count_equals_record"] == 0.0


def test_a_position_read_otherwise_than_the_teacher_says_whose_count_the_players_agree_with():
    import numpy as np

    from seog.features import sgf
    from seog.scoring.score import score_game

    model = model_file.load(model_file.DEFAULT_MODEL)
    data = EXAMPLE.read_bytes()
    game = sgf.loads(data)
    ours = np.zeros((19, 19), dtype=bool)
    ours.flat[score_game(game, model=model).read_dead] = True
    assert ours.any()  # seog takes stones off: a teacher that keeps them all disagrees
    agreeing = recount([("g", data)], model, truth=lambda game, raw, gid: ours)["flags against the teacher"]
    assert agreeing["wrong"] == 0 and agreeing["wrong, our count = record"] == 0
    keeping = recount([("g", data)], model, truth=lambda game, raw, gid: np.zeros((19, 19), dtype=bool))
    flags = keeping["flags against the teacher"]
    assert flags["wrong"] == 1 and flags["wrong, our count = record"] == 1
    assert flags["wrong, the teacher's count = record"] == 0


def test_another_engines_dead_stones_are_set_against_the_teachers_game_by_game():
    import numpy as np

    from seog.features import sgf
    from seog.scoring.score import score_game

    model = model_file.load(model_file.DEFAULT_MODEL)
    data = EXAMPLE.read_bytes()
    ours = np.zeros((19, 19), dtype=bool)
    ours.flat[score_game(sgf.loads(data), model=model).read_dead] = True
    games = [("same stones", data), ("none dead", data)]
    engine = {"same stones": ours, "none dead": np.zeros((19, 19), dtype=bool)}  # the peer's dead stones
    figures = recount(games, model, dead_by=lambda game, raw, gid: engine[gid], truth=lambda game, raw, gid: ours)
    assert figures["against the teacher"] == {"positions": 2, "wrong": 1, "wrong_games": ["none dead"]}
    assert "flags against the teacher" not in figures  # the peer has no flags


def test_only_the_named_games_of_a_side_are_read(tmp_path):
    import tarfile

    from seog.datasets.recount import held_out_games
    from seog.datasets.split import split_of

    names = [f"kgs/2002__2002-01-{day:02d}-1.sgf" for day in range(1, 29)]
    archive = tmp_path / "games.tar"
    with tarfile.open(archive, "w") as tar:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = len(EXAMPLE.read_bytes())
            tar.addfile(info, EXAMPLE.open("rb"))
    hashed = [n for n in names if split_of(n) == "hash"]
    assert hashed  # one in ten by the hash of the id: some of 28
    wanted = {hashed[0].rsplit("__", 1)[1][:-4]}
    assert [gid for gid, _ in held_out_games([str(archive)], "hash", wanted)] == sorted(wanted)
    assert len(list(held_out_games([str(archive)], "hash"))) == len(hashed)
