"""The static pass and the decision around it: Benson, stones in atari, and captures that need
a living capturer."""

from conftest import board
from seog.classifiers.status import decide, static_statuses
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

