"""The Python API, ``seog.score``: a game scored in this process, answered as ``seog score --json``
answers, for a Go server or a notebook that should not shell out or speak HTTP.

Its input is checked as the REST API checks a request (``positions``), and every problem with it
is a ``ValueError`` whose subclass and message name it (``positions.INPUT_ERRORS``, or pydantic's
``ValidationError`` for a board's fields).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from seog.api import positions, schemas
from seog.features import sgf

Game = str | bytes | os.PathLike | Sequence[str]


def score(game: Game, *, rules: str | None = None, komi: float | None = None, use_markup: bool = False,
          finished: bool | None = None, dead: Iterable[str] = (), alive: Iterable[str] = (),
          handicap: int = 0, prisoners: Mapping[str, int] | None = None, result: str | None = None,
          ignore_result: bool = False) -> schemas.ScoreResponse:
    """Score ``game``: SGF text (a ``str`` starting with ``(``) or bytes, the path of an SGF file
    (``str`` or ``Path``), or board rows top to bottom (``X`` black, ``O`` white, ``.`` empty).

    ``rules`` and ``komi`` override the SGF's RU and KM (a board's defaults are the REST API's);
    ``finished=False`` says the game did not end with a count; ``dead`` and ``alive`` are the
    caller's decisions as GTP vertices, each for its whole block; ``handicap`` and ``prisoners``
    (``{"black": 3, "white": 1}``) go with a board only, ``use_markup`` with SGF only; ``result``,
    a board's counted result (``"B+3.5"``; an SGF's is its RE), settles the groups in doubt unless
    ``ignore_result`` (docs/scoring.md). The answer
    has the fields of ``seog score --json`` (``answer.model_dump(exclude_unset=True)`` is that
    object)."""
    if isinstance(game, (str, bytes, os.PathLike)):
        if handicap or prisoners is not None or result is not None:
            raise positions.RequestError("handicap, prisoners and result go with a board; an SGF's come from "
                                         "its HA, its moves and its RE")
        request = _sgf_request(game, rules=rules, komi=komi, use_markup=use_markup, finished=finished,
                               dead=list(dead), alive=list(alive), ignore_result=ignore_result)
    elif isinstance(game, Sequence) and all(isinstance(row, str) for row in game):
        if use_markup:
            raise positions.RequestError("use_markup needs SGF input: a board carries no territory marks")
        body = schemas.ScoreRequest(board=list(game), rules=rules, komi=komi, handicap=handicap,
                                    prisoners=prisoners, finished=finished, result=result,
                                    ignore_result=ignore_result,
                                    overrides={"dead": list(dead), "alive": list(alive)})
        request = positions.from_request(body)
    else:
        raise TypeError(f"seog.score takes SGF text or bytes, an SGF file's path, or board rows (strings), "
                        f"not {type(game).__name__}")
    from seog.scoring.report import to_dict
    from seog.scoring.score import score as count

    return schemas.ScoreResponse.model_validate(to_dict(count(request), request.recorded))


def _sgf_request(game: str | bytes | os.PathLike, *, rules, komi, use_markup, finished, dead, alive,
                 ignore_result):
    """The scoring request of SGF text, bytes or a file; an error with a file names it."""
    if komi is not None:  # the bounds the REST API's schema states
        schemas.ScoreRequest(sgf="(;)", komi=komi)
    options = dict(rules=rules, komi=komi, use_markup=use_markup, dead=dead, alive=alive, finished=finished,
                   ignore_result=ignore_result)
    if isinstance(game, bytes) or (isinstance(game, str) and game.lstrip().startswith("(")):
        return positions.from_sgf(game, **options)
    path = Path(game)
    try:
        with path.open("rb") as file:
            data = sgf.read_limited(file)
    except OSError as exc:
        raise sgf.SgfError(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        return positions.from_sgf(data, **options)
    except sgf.SgfError as exc:
        raise sgf.SgfError(f"{path.name}: {exc}") from None
