"""The scored copy of a game as SGF (``with_score``): the record it was read from, in UTF-8,
with seog's RE, marks and comment added, so that comments, times and variations survive; a game
made in code (a board, a match) is written from its replayed moves.
"""

from __future__ import annotations

from functools import cache

from sgfmill import sgf, sgf_grammar, sgf_properties

from seog.features import coords
from seog.features.coords import BLACK, WHITE
from seog.features.replay import (
    LETTER_OF,
    SEOG_COMMENT,
    Game,
    node_raw,
    node_text,
    read_komi,
    written_by_fox,
)
from seog.features.sgf_read import Parsed, parse
from seog.features.sgf_write import check_names, check_value, check_values, joined, serialise, transcode


def with_score(game: Game, result: str, territory: dict, comment: str = "") -> bytes:
    """SGF text (UTF-8) of ``game`` with RE set to ``result`` (when there is one), the TB/TW marks
    and a comment in a node after the main line's last. A game read from SGF keeps its whole record (see ``_marked_copy``);
    one made in code (a board, a match) is written from its replayed moves."""
    if game.source is None:
        return _rebuilt(game, result, territory, comment)
    return _marked_copy(game, result, territory, comment)


def _marked_copy(game: Game, result: str, territory: dict, comment: str) -> bytes:
    """The record ``game`` was read from, in UTF-8, with RE, the KM and RU of ``game`` where
    they are not what the file says (Fox komi, rules seog does not know), and the marks and
    comment in a node of their own. Comments, times, variations and other properties stay.
    The copy is made on the parsed tree itself (sgfmill's coarse tree, its nodes wrapped one at
    a time), not on a tree of node objects."""
    parsed = game.parsed
    if parsed is None:
        tree, encoding = parse(game.source)
        parsed = Parsed(tree, encoding, tree.sequence[0].get("CA"))
    tree = joined(_utf8_copy(parsed, game.source is not None and game.source.isascii()))
    check_names(tree)
    presenter = sgf_properties.Presenter(game.size, "UTF-8")
    root = sgf.Node(tree.sequence[0], presenter)
    root.set_raw("CA", b"UTF-8")
    if result:  # none: the record's own RE, if any, stays as written
        root.set("RE", result)
    if node_text(root, "RU") != game.rules:
        root.set("RU", game.rules)
    if read_komi(node_raw(root, "KM"), written_by_fox(root), game.size) != (game.komi, ""):
        root.set("KM", game.komi)
    if territory[BLACK] or territory[WHITE] or comment:
        leaf = tree
        while leaf.children:
            leaf = leaf.children[0]
        last = sgf.Node(leaf.sequence[-1], presenter)
        if not _is_seog_node(last):  # a node of its own after the main line's last
            leaf.sequence.append({})
        elif leaf.sequence[-1] is not tree.sequence[0]:  # the copy may share it with the record
            leaf.sequence[-1] = dict(leaf.sequence[-1])
        last = sgf.Node(leaf.sequence[-1], presenter)
        _set_marks(last, territory, comment, game.size)
        if comment:  # the marks are point names from a table, well-formed as they are
            check_values({"C": last.get_raw_list("C")})
    check_values(root.get_raw_property_map())
    return serialise(tree)


def _utf8_copy(parsed: Parsed, ascii_text: bool = False):
    """A copy of the parsed tree (``Parsed.copy``) with every value turned from the file's
    encoding (``parsed.encoding``, or the one sgfmill reads from CA) into UTF-8, in one walk;
    bytes that do not decode are replaced, and a value the turn changes is checked. A text all
    ASCII (``ascii_text``) keeps its nodes (``Parsed.branches``; ``_marked_copy`` replaces those
    it changes): ``transcode`` keeps an ASCII value."""
    if ascii_text:
        return parsed.branches()
    encoding = parsed.encoding
    if encoding is None:
        root = sgf_grammar.Coarse_game_tree()
        root.sequence = [{} if parsed.ca is None else {"CA": parsed.ca}]
        encoding = sgf.Sgf_game.from_coarse_game_tree(root).get_root().get_encoding()

    def turned(key: str, values: list) -> list:
        out = [transcode(v, encoding) for v in values]
        for before, after in zip(values, out):
            if after is not before:
                check_value(key, after)
        return out

    return parsed.copy(turned)


def _is_seog_node(last) -> bool:
    """Whether ``last`` is the node an earlier copy left (no move, a comment starting 'seog:'),
    which takes the marks and comment again, so that copies of copies do not stack."""
    return last.get_move()[0] is None and node_text(last, "C").startswith(SEOG_COMMENT)


def _set_marks(node, territory: dict, comment: str, size: int) -> None:
    """TB/TW and C on ``node``, replacing any it had."""
    names = _point_names(size)
    for color, key in ((BLACK, "TB"), (WHITE, "TW")):
        if territory[color]:
            node.set_raw_list(key, sorted({names[i] for i in territory[color]}))  # as sgfmill writes a point list
        elif node.has_property(key):
            node.unset(key)
    if comment:
        node.set("C", comment)
    elif node.has_property("C"):
        node.unset("C")


@cache
def _point_names(size: int) -> tuple[bytes, ...]:
    """Each grid index's SGF point as written (``coords.index_to_sgf``), made once a size."""
    return tuple(coords.index_to_sgf(i, size).encode("ascii") for i in range(size * size))


def _rebuilt(game: Game, result: str, territory: dict, comment: str) -> bytes:
    """A clean record of ``game``'s size, komi, rules, setup and moves, with the score."""
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("KM", game.komi)
    if game.handicap:
        root.set("HA", game.handicap)
    if game.rules:
        root.set("RU", game.rules)
    for key, value in game.properties.items():
        try:
            root.set(key, value)
        except ValueError:
            pass  # a value sgfmill cannot write back (an empty TM[], as old KGS records have) is dropped
    if result:
        root.set("RE", result)
    if game.setup:
        _set_setup(root, game.setup, game.size)
    later = game.setup_between()
    node = root
    for number in range(len(game.moves) + 1):  # setup nodes before each move, and after the last
        if number in later:
            node = node.new_child()
            _set_setup(node, later[number], game.size)
        if number < len(game.moves):
            color, point = game.moves[number]
            node = node.new_child()
            node.set_move(LETTER_OF[color], None if point is None else coords.to_sgfmill(point, game.size))
    if node is not root and (territory[BLACK] or territory[WHITE] or comment):
        node = node.new_child()
    _set_marks(node, territory, comment, game.size)
    return record.serialise()


def _set_setup(node, stones: list, size: int) -> None:
    """AB/AW/AE on a node from (colour or 0 for empty, flat point) pairs; for a point set twice
    (two setup nodes between the same moves), the later setting is the one that stands."""
    last = {point: color for color, point in stones}
    points = {BLACK: set(), WHITE: set(), 0: set()}
    for point, color in last.items():
        points[color].add(coords.to_sgfmill(point, size))
    node.set_setup_stones(points[BLACK], points[WHITE], points[0] or None)
