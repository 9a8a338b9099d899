"""The static pass and the decision around it: Benson, stones in atari, and captures that need
a living capturer."""

import re
from dataclasses import asdict, fields, replace
from pathlib import Path

from conftest import board, shared_dir, verdicts
from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.status import decide, flag_sure_turned, static_statuses
from seog.features.topology import analyze

# A black group dead inside White's wall (no eyes), with a white stone in atari at D5 inside it.
# Black could take D5 at E5, but Black is dead: the white stone lives, as players count it.
STONE_IN_ATARI_AMONG_DEAD_STONES = """
    O O O O O O O
    O . X X X . O
    O X X O . X O
    O X X X X X O
    O . X . X . O
    O O O O O O O
    O . . O . . O
"""


def test_a_stone_in_atari_is_dead_when_its_capturer_lives():
    b = board("""
        . . . . . . .
        . X X X . . .
        . X O . X . .
        . . X X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """)
    topo = analyze(b.grid)
    settled = static_statuses(topo)
    white = topo.block_at(2 * 7 + 2)
    assert settled[white.id].source == "atari" and not settled[white.id].alive


def test_a_stone_in_atari_among_dead_stones_is_alive():
    topo = analyze(board(STONE_IN_ATARI_AMONG_DEAD_STONES).grid)
    static = static_statuses(topo)
    stone = topo.block_at(2 * 7 + 3)          # D5
    wall = topo.block_at(0)
    inner = topo.block_at(1 * 7 + 2)          # the black group
    assert static[stone.id].source == "atari"  # the static pass alone takes it
    assert static[wall.id].source == "benson"
    statuses = {s.block: s for s in decide(topo, model=None)}
    assert not statuses[inner.id].alive
    assert statuses[stone.id].alive and statuses[stone.id].source == "capturers-dead"



def test_the_default_settings_are_the_thresholds_the_shipped_model_is_measured_with():
    assert asdict(DEFAULT) == {
        "heuristic_eye_space": 2, "heuristic_reach": 3,
        "cascade_margin": 0.25, "refiner_margin": 0.25, "sure": 0.95,
        "read_min_stones": 4, "read_max_liberties": 3, "read_max_chain_liberties": 5,
        "read_depth": 12, "read_nodes": 70, "read_position_nodes": 210,
        "big_eye": 7, "alone_eye": 6, "big_eye_and_another": 6, "few_stones": 3, "open_board": 0.5, "small_eye": 8,
        "taken_min": 2, "seki_min_opponent": 4, "race_max_liberties": 12,
        "trigger_min_stones": 2, "trigger_few_liberties": 0, "trigger_roomy": 0, "trigger_race_liberties": 6,
        "life_nodes": 150, "life_position_nodes": 1200,
    }
    assert DEFAULT == PassSettings()


def test_the_model_card_lists_every_setting_with_its_value():
    card = (Path(__file__).resolve().parent.parent / "docs" / "model.md").read_text()
    table = dict(re.findall(r"^\| `(\w+)` \| ([0-9.]+) \|", card.split("## Settings", 1)[-1], re.MULTILINE))
    assert {f.name: float(table.get(f.name, "nan")) for f in fields(DEFAULT)} == asdict(DEFAULT)


def _kgs_game(name: str):
    """(topology, the players' verdict per block, 1 alive) of a kgs-2017-q1 dev game."""
    from seog.datasets.devsets import read
    from seog.datasets.labels import block_labels

    position = read(shared_dir("kgs-2017-q1") / f"{name}.sgf")[0][0]
    topo = analyze(position.board.grid)
    return topo, block_labels(topo, position.dead)[0]


def _answers(statuses) -> list[tuple]:
    return [(st.block, st.alive, str(st.source), st.p_alive, str(st.doubt)) for st in statuses]


def test_a_kgs_game_where_reading_takes_22_stones_reads_as_the_players_counted_it_with_the_default_settings():
    # kgs-2017-q1 2017-01-06-18: the reader calls Black's 22 stones at N11 alive; they have two
    # liberties and are captured whoever moves first, and the players count them dead.
    from seog.scoring.score import default_model

    topo, marks = _kgs_game("2017-01-06-18")
    model = default_model()
    statuses = decide(topo, model)
    assert _answers(statuses) == _answers(decide(topo, model, settings=PassSettings()))
    assert all(st.alive == bool(marks[st.block]) for st in statuses)
    [group] = [st for st in statuses if st.source == "reading"]
    assert len(group.points) == 22 and not group.alive
    # reading only bigger blocks, or only blocks with one liberty, leaves the group to the reader
    for unread in (replace(DEFAULT, read_min_stones=23), replace(DEFAULT, read_max_liberties=1)):
        st = decide(topo, model, settings=unread)[group.block]
        assert st.alive and st.source == "refiner"


# Black's three stones in the corner: one point of eye space at A7, one liberty at C7 that White
# walls, four white stones near and no other black one.
ONE_POINT_OF_EYE_SPACE = """
    . X . O . . .
    X X O . . . .
    O O . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


def test_a_corner_group_with_one_point_of_eye_space_is_dead_by_the_heuristic_unless_the_settings_say_otherwise():
    topo = analyze(board(ONE_POINT_OF_EYE_SPACE).grid)
    black = topo.block_at(1)
    assert len(black.liberties) == 2 and not decide(topo)[black.id].alive  # 1 point of eye space, 0 stones to 4
    assert decide(topo, settings=replace(DEFAULT, heuristic_eye_space=1))[black.id].alive
    assert decide(topo, settings=replace(DEFAULT, heuristic_reach=0))[black.id].alive  # no stone counted: 0 to 0


def test_a_rule_against_a_reader_this_sure_is_flagged_as_the_settings_say():
    topo = analyze(board(ONE_POINT_OF_EYE_SPACE).grid)
    before = verdicts(topo)  # every block alive at p = 0.99
    ruled = {b: st.turned(False, "eyespace") for b, st in before.items()}
    assert all(st.doubt == "rule" for st in flag_sure_turned(before, ruled).values())
    assert all(st.doubt == "" for st in flag_sure_turned(before, ruled, sure=0.995).values())
