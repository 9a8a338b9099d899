"""Tactical reading on positions a Go player can check: each answer below is GNU Go 3.8's too
(``attack``/``defend`` on the same picture), moves included where one move is the answer."""

from seog.features import coords
from seog.features.coords import BLACK
from seog.reading.board import SearchBoard
from seog.reading.results import Code
from seog.reading.tactics import Limits, attack, defend

# A black stone in atari at E5, White's stones on three sides and one on the diagonal below
# (F4): Black's extension at E4 runs into a ladder towards the lower left.
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . O . . . .
. . . O X O . . .
. . . . . O . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def read(picture: str):
    b = SearchBoard.from_rows(picture)
    return b, (lambda v: coords.from_gtp(v, b.size))


def with_stone(picture: str, vertex: str, stone: str) -> str:
    rows = [r.split() for r in picture.strip().splitlines()]
    row, col = coords.from_flat(coords.from_gtp(vertex, len(rows)), len(rows))
    rows[row][col] = stone
    return "\n".join(" ".join(r) for r in rows)


def test_a_ladder_that_works_cannot_be_escaped():
    b, at = read(LADDER)
    before = b.to_rows()
    assert attack(b, at("E5")).code == Code.WIN
    assert defend(b, at("E5")).code == Code.LOSS
    assert b.to_rows() == before and b.depth() == 0  # the search leaves the board as it found it


def test_a_ladder_breaker_on_the_ladders_path_lets_the_stone_escape():
    b, at = read(with_stone(LADDER, "B2", "X"))
    result = defend(b, at("E5"))
    assert result.code == Code.WIN and result.move == at("E4")


def test_a_stone_off_the_ladders_path_breaks_nothing():
    b, at = read(with_stone(LADDER, "H2", "X"))
    assert defend(b, at("E5")).code == Code.LOSS


def test_a_net_catches_a_stone_that_no_ladder_takes():
    # Black's D4 has two liberties (D5, E4); ladder breakers stand at B8, H8 and H2, so only the
    # loose move on the diagonal, E5, shuts the stone in.
    b, at = read("""
        . . . . . . . . .
        . X . . . . . X .
        . . . . . . . . .
        . . . . . . . . .
        . . O . . . . . .
        . . O X . . . . .
        . . . O O . . . .
        . . . . . . . X .
        . . . . . . . . .
    """)
    result = attack(b, at("D4"))
    assert result.code == Code.WIN and result.move == at("E5")
    assert result.move not in b.block[at("D4")].libs
    assert defend(b, at("D4")).code == Code.WIN  # Black to move runs out at D5


def test_a_snapback_takes_the_block_that_captures_the_stone_thrown_in():
    # White's A2-C2-C1 has two liberties, A1 and B1; a black stone on either is taken, and
    # taking it leaves White with one liberty where Black's stone was.
    b, at = read("""
        . . . . . .
        . . . . . .
        . . . . . .
        X X X X . .
        O O O X . .
        . . O X . .
    """)
    result = attack(b, at("A2"))
    assert result.code == Code.WIN and result.move in (at("A1"), at("B1"))
    assert b.liberties_after(BLACK, result.move) == 1  # the move puts Black's stone in atari
    assert defend(b, at("A2")).code == Code.LOSS


def test_a_stone_thrown_in_shortens_the_blocks_liberties():
    # White's A2-A1-B1 (liberties A3, B2): Black throws a stone in at B2, in atari itself, and
    # White cannot both take it and save the corner.
    b, at = read("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        X X X . . . .
        . . O O . . .
        O . O O X . .
        O O X X X . .
    """)
    assert attack(b, at("A2")).code == Code.WIN
    assert defend(b, at("A2")).code == Code.WIN  # White moving first saves it
    assert b.liberties_after(BLACK, at("B2")) == 1
    b.play(BLACK, at("B2"))  # the throw-in, as GNU Go plays it (E3 kills too)
    assert defend(b, at("A2")).code == Code.LOSS


def test_a_block_in_atari_escapes_by_capturing():
    # Black's C3-D3-C2-C1 is in atari (B1); the white stones D2-D1 beside it are in atari too.
    b, at = read("""
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . O O . . .
        . O X X O . .
        . O X O X . .
        . . X O . . .
    """)
    assert attack(b, at("C3")).code == Code.WIN
    result = defend(b, at("C3"))
    assert result.code == Code.WIN and result.move == at("E1")


def test_a_stone_taken_in_a_ko_is_answered_as_ko():
    # White's B2 can be taken at C2, but that is a ko: White takes back at B2 after a threat.
    b, at = read("""
        . . . . . .
        . . . . . .
        . . . . . .
        . X O . . .
        X O . O . .
        . X O . . .
    """)
    result = attack(b, at("B2"))
    assert result.code == Code.KO_A and result.move == at("C2")


def test_a_block_with_five_liberties_is_not_read():
    b, at = read(LADDER)
    b.play(BLACK, at("C4"))
    b.play(BLACK, at("D4"))  # C4-D4 beside White's D5: five liberties
    assert len(b.block[at("D4")].libs) == 5
    assert attack(b, at("D4")).code == Code.LOSS


def test_a_search_out_of_nodes_judges_the_block_by_its_liberties():
    b, at = read(LADDER)
    # Two moves of budget: the ladder is not read to its end, and a block of two liberties is safe.
    assert defend(b, at("E5"), nodes=2).code == Code.WIN
    # Four moves deep, Black is in atari again: a block in atari is taken.
    assert defend(b, at("E5"), limits=Limits(max_depth=4)).code == Code.LOSS
    assert defend(b, at("E5"), limits=Limits(max_depth=5)).code == Code.WIN
