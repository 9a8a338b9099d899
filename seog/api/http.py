"""The REST API: score a finished game sent as SGF text, an uploaded file or a JSON board.

``create_app()`` builds the FastAPI application; ``app`` is the one ``seog serve`` runs. Bad input
is answered 4xx with ``{"detail": "<what is wrong>"}``; an unexpected failure is a 500 with the same
shape, never a bare traceback. Scoring runs in worker threads through one limiter of as many
threads as there are cores (more would only share the GIL and finish every request late), so a
count never blocks the event loop, and ``/v1/health`` and ``/v1/model`` answer on the loop at once
however many counts are queued. The JSON body is decoded and validated on the loop, as FastAPI does:
a 1 MiB body takes ~1 ms as SGF text, at worst ~35 ms as tiny JSON values, and a worker thread would
not free the loop meanwhile (``json`` and pydantic hold the GIL while they parse).
"""

from __future__ import annotations

import functools
import json
import os
import re
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import anyio
from fastapi import Depends, FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from seog import clip, cores
from seog.api import positions, schemas

MAX_BODY = 1 << 20  # 1 MiB: a long 19x19 game with comments is well under 100 KiB
MAX_DRAIN = 64 << 20  # a refused body up to 64 MiB is read and dropped, so that its sender sees the 413
HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
UPLOAD_FIELDS = frozenset({"file", "rules", "komi", "use_markup", "overrides", "annotated_sgf", "svg"})
STATIC_DIR = Path(__file__).resolve().parent / "static"
OVERRIDES_FIELD = 'the caller\'s decisions as JSON, {"dead": ["D4"], "alive": ["Q16"]}, each for the whole block'
MAX_LISTED_ERRORS = 20  # a 422 lists this many; a 1 MiB object of unknown keys made 88,000 (11 MB)
_ERRORS = {400: {"model": schemas.Error,
                 "description": "the input names no position seog can score, and the detail says why: SGF that "
                                "is no game of Go, an illegal position or move, rows that are not a square of the "
                                "board's size, a handicap the board cannot hold, an override off the board or on "
                                "an empty point, markup the SGF lacks, a value outside a pattern the schema "
                                "gives (rules, rows, vertices); or a body that is not UTF-8 or is nested too deep"},
           413: {"model": schemas.Error, "description": f"the request body is over the size limit "
                                                        f"({MAX_BODY} bytes by default)"},
           415: {"model": schemas.Error, "description": "the body is not of the content type the endpoint takes, "
                                                        "or is compressed"},
           422: {"model": schemas.Error, "description": "the body is not JSON, or its fields, types or bounds do "
                                                        "not match the schema"}}


def create_app(*, max_body: int = MAX_BODY, static_dir: Path | None = STATIC_DIR,
               score_threads: int | None = None, cors_origins: list[str] | tuple = ()) -> FastAPI:
    """The application: the ``/v1`` API, its docs at ``/docs``, and the web page at ``/`` when
    ``static_dir/index.html`` exists. At most ``score_threads`` counts run at once (default: the
    cores this process may use); the others wait their turn. Browser pages from ``cors_origins``
    may call the API."""
    app = FastAPI(title="seog", version=_version(), lifespan=_load_model_first,
                  description="Score End Of Game: decide the dead stones of a finished game of Go and count it.")
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # answers with svg or an SGF copy run to 100 KB
    if cors_origins:  # outermost, so that a 413 carries the CORS headers too
        app.add_middleware(CORSMiddleware, allow_origins=list(cors_origins), allow_methods=["GET", "HEAD", "POST"],
                           allow_headers=["content-type"], max_age=3600)
    _add_error_handlers(app, max_body)
    app.state.score_limiter = limiter = anyio.CapacityLimiter(score_threads or cores())

    async def in_worker(work, *args):
        """Run ``work(*args)`` in a worker thread, waiting for one of the limiter's slots."""
        return await anyio.to_thread.run_sync(work, *args, limiter=limiter)

    @app.get("/v1/health", response_model=schemas.Health)
    async def health() -> dict:
        """Liveness, answered on the event loop: never queued behind the counts."""
        return {"status": "ok", "version": _version()}

    app.add_api_route("/v1/health", health, methods=["HEAD"], include_in_schema=False)  # uptime monitors

    @app.get("/v1/model", response_model=schemas.ModelInfo)
    async def model() -> dict:
        """The model in use (loaded once per process, as the server starts)."""
        from seog.scoring.score import default_model
        return model_info(default_model())

    @app.post("/v1/score", response_model=schemas.ScoreResponse, response_model_exclude_unset=True,
              responses=_ERRORS, dependencies=[Depends(takes_json)])
    async def score(request: schemas.ScoreRequest) -> dict:
        """Score a position given as SGF text or as board rows (``X`` black, ``O`` white, ``.`` empty)."""
        if request.annotated_sgf and request.sgf is None:
            raise positions.RequestError("annotated_sgf needs SGF input (the game's moves)")
        return await in_worker(score_request, request)

    @app.post("/v1/score/sgf", response_model=schemas.ScoreResponse, response_model_exclude_unset=True,
              responses=_ERRORS, dependencies=[Depends(takes_upload)])
    async def score_upload(http_request: Request,
                           file: Annotated[UploadFile, File(description="an .sgf file")],
                           rules: Annotated[str | None, Form(max_length=schemas.MAX_RULES_LENGTH,
                                                             description=schemas.RULES_FIELD,
                                                             json_schema_extra={"pattern": schemas.RULES_PATTERN})
                                            ] = None,
                           komi: Annotated[float | None, Form(ge=-1000, le=1000, allow_inf_nan=False)] = None,
                           use_markup: Annotated[bool, Form()] = False,
                           overrides: Annotated[str | None, Form(description=OVERRIDES_FIELD)] = None,
                           annotated_sgf: Annotated[bool, Form()] = False,
                           svg: Annotated[bool, Form()] = False) -> dict:
        """Score an uploaded SGF file; ``rules`` and ``komi`` override the file's RU and KM, and
        ``overrides`` holds the caller's dead/alive decisions, as in ``POST /v1/score``."""
        check_form_fields(await http_request.form(), UPLOAD_FIELDS)
        data = await file.read()
        if not data.strip():
            raise positions.RequestError("the uploaded file is empty")
        return await in_worker(score_upload_data, data, rules or None, komi, use_markup, annotated_sgf, svg,
                               overrides)

    _document_the_upload(app)
    if static_dir is not None and (Path(static_dir) / "index.html").is_file():
        _add_v1_fallback(app)
        from fastapi.staticfiles import StaticFiles
        app.mount("/", StaticFiles(directory=static_dir, html=True), name="static")
    return app


@asynccontextmanager
async def _load_model_first(app: FastAPI):
    """Load the model before the first request: a damaged model file stops the server's start
    instead of failing every count, and the first count is not the one that waits for it. BLAS
    goes on one thread for good, as counts run in several threads."""
    from seog.classifiers.refiner import one_blas_thread_for_good
    from seog.scoring.score import default_model

    one_blas_thread_for_good()
    await anyio.to_thread.run_sync(default_model)
    yield


def _document_the_upload(app: FastAPI) -> None:
    """State in the OpenAPI document what ``POST /v1/score/sgf`` takes, where FastAPI's schema of its
    form says less: a non-empty file, no other field, ``overrides`` as a JSON object (the JSON
    body's), and no null (a form field is text or absent)."""
    generate = app.openapi

    def openapi() -> dict:
        if app.openapi_schema is None:
            document = generate()
            content = document["paths"]["/v1/score/sgf"]["post"]["requestBody"]["content"]["multipart/form-data"]
            form = document["components"]["schemas"][content["schema"]["$ref"].rsplit("/", 1)[-1]]
            fields = form["properties"]
            for name, field in fields.items():
                kinds = [kind for kind in field.pop("anyOf", ()) if kind.get("type") != "null"]
                fields[name] = {**field, **kinds[0]} if kinds else field
            fields["file"]["minLength"] = 1
            fields["overrides"] = {"$ref": "#/components/schemas/Overrides", "description": OVERRIDES_FIELD}
            form["additionalProperties"] = False
            content["encoding"] = {"overrides": {"contentType": "application/json"}}
        return app.openapi_schema

    app.openapi = openapi


def _add_v1_fallback(app: FastAPI) -> None:
    """Answer a path under ``/v1/`` that no route takes with a JSON 405 (and the right ``Allow``)
    or 404, instead of letting it fall through to the web page mounted at ``/`` (without the page,
    Starlette's router answers so already)."""
    @app.api_route("/v1/{rest:path}", methods=list(HTTP_METHODS), include_in_schema=False)
    async def no_route(request: Request) -> None:
        allowed = sorted({m for route in app.routes if isinstance(route, APIRoute) and route.endpoint is not no_route
                          and route.matches(request.scope)[0] == Match.PARTIAL for m in route.methods})
        if allowed:
            raise StarletteHTTPException(405, f"method {request.method} is not allowed here; use "
                                              f"{' or '.join(allowed)}", headers={"Allow": ", ".join(allowed)})
        raise StarletteHTTPException(404, "Not Found")


class BodyTooLarge(StarletteHTTPException):
    def __init__(self) -> None:
        super().__init__(status_code=413, detail="request body too large")


class BodyLimit:
    """Answer 413 (JSON, naming the limit) for a request body over ``limit`` bytes, whether the
    client declares its length or streams it in chunks, and 415 for a compressed body (its size
    after decompression would escape the limit). The refused body is read to its end and dropped,
    up to ``drain`` bytes, before the 413 goes out: a client that sends all of the body before it
    reads (Python's urllib) otherwise meets a connection closed on unread bytes, not the answer.
    A client that waits for ``100 Continue`` is answered at once, having sent nothing."""

    def __init__(self, app, limit: int, drain: int = MAX_DRAIN) -> None:
        self.app, self.limit, self.drain = app, limit, drain

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or ())
        encoding = headers.get(b"content-encoding", b"identity").decode("latin-1").strip()
        if encoding.lower() != "identity":
            response = JSONResponse({"detail": f"Content-Encoding {clip(encoding)} is not accepted: "
                                               "send the body uncompressed"}, status_code=415)
            return await response(scope, receive, send)
        waits = headers.get(b"expect", b"").strip().lower() == b"100-continue"
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.limit:
            if not waits and int(declared) <= self.drain:
                await _drop_body(receive, self.drain)
            return await self._refuse(scope, receive, send)
        total, started = 0, False

        async def counting_receive():
            nonlocal total
            message = await receive()
            if message["type"] == "http.request":
                total += len(message.get("body", b""))
                if total > self.limit:
                    if message.get("more_body", False):  # whoever answers the 413, after the body
                        await _drop_body(receive, self.drain - total)
                    raise BodyTooLarge()
            return message

        async def watching_send(message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, watching_send)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope, receive, send) -> None:
        response = JSONResponse({"detail": _too_large(self.limit)}, status_code=413)
        await response(scope, receive, send)


async def _drop_body(receive, budget: int) -> None:
    """Read the rest of a request body and keep none of it; stop past ``budget`` bytes (the
    connection is then closed on the rest)."""
    while budget >= 0:
        message = await receive()
        if message["type"] != "http.request":
            return
        budget -= len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _too_large(limit: int) -> str:
    return f"request body too large: the limit is {limit} bytes"


def _content_type(request: Request) -> tuple[str, str]:
    """The request's media type as written (clipped, without parameters: a multipart boundary
    says nothing) and in lower case."""
    written = request.headers.get("content-type", "").split(";", 1)[0].strip()
    return clip(written), written.lower()


def takes_json(request: Request) -> None:
    """Refuse (415) a body to ``POST /v1/score`` that is not JSON, naming what it takes: an SGF
    upload sent there got 'body: Input should be a valid dictionary'."""
    written, media = _content_type(request)
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        raise StarletteHTTPException(415, f"POST /v1/score takes a JSON object (content-type: application/json), "
                                          f"not {written or 'a body without a content type'}; to upload an SGF "
                                          "file, POST it to /v1/score/sgf as multipart/form-data")


def takes_upload(request: Request) -> None:
    """Refuse (415) a body to ``POST /v1/score/sgf`` that is not a multipart upload, naming what it
    takes: raw SGF sent there (application/x-go-sgf) got 'file: Field required'."""
    written, media = _content_type(request)
    if media != "multipart/form-data":
        raise StarletteHTTPException(415, f"POST /v1/score/sgf takes a multipart/form-data upload with the SGF in "
                                          f"a 'file' field (curl -F file=@game.sgf), not "
                                          f"{written or 'a body without a content type'}; to send SGF text, POST "
                                          "{\"sgf\": \"...\"} to /v1/score as application/json")


def score_request(request: schemas.ScoreRequest) -> dict:
    """The answer to a ``POST /v1/score`` body (read, check and count: the work done in a thread)."""
    return score_answer(positions.from_request(request), request.annotated_sgf, request.svg)


def score_upload_data(data: bytes, rules: str | None, komi: float | None, use_markup: bool,
                      with_sgf: bool, with_svg: bool = False, overrides: str | None = None) -> dict:
    """The answer to an uploaded SGF file (read, check and count: the work done in a thread)."""
    decisions = read_overrides(overrides)
    position = positions.from_sgf(data, rules=rules, komi=komi, use_markup=use_markup,
                                  dead=decisions.dead, alive=decisions.alive)
    return score_answer(position, with_sgf, with_svg)


def read_overrides(text: str | None) -> schemas.Overrides:
    """The upload's ``overrides`` field (JSON text) checked by the JSON body's own model, so that
    the same bounds give the same 422 (``overrides.dead.0: ...``); none when absent or empty."""
    if not text or text.strip() in ("", "null"):  # as the JSON body's "overrides": null
        return schemas.Overrides()
    try:
        return schemas.Overrides.model_validate_json(text)
    except ValidationError as exc:
        raise RequestValidationError([{**e, "loc": ("body", "overrides", *e["loc"])}
                                      for e in exc.errors(include_url=False)]) from None


def check_form_fields(form, allowed: frozenset[str]) -> None:
    """Refuse (422, as the JSON endpoint refuses extra keys) a form field the upload does not take,
    and any field given twice: a misspelt option or a second file was silently ignored."""
    names = [name for name, _ in form.multi_items()]
    errors = [{"loc": ("body", clip(name)), "msg": "Extra inputs are not permitted", "type": "extra_forbidden"}
              for name in dict.fromkeys(names) if name not in allowed]
    errors += [{"loc": ("body", name), "msg": f"given {names.count(name)} times; send it once",
                "type": "repeated"} for name in dict.fromkeys(names) if name in allowed and names.count(name) > 1]
    if errors:
        raise RequestValidationError(errors)


_QUOTED = re.compile(r"'[^'\n]*+'" + r'|"[^"\n]*+"')


def _clip_quotes(message: str) -> str:
    """An error message with each quoted piece cut as ``seog.clip`` cuts it: the loaders clip what
    they quote, and this catches a message from elsewhere that does not."""
    return _QUOTED.sub(lambda m: m[0][0] + clip(m[0][1:-1]) + m[0][0], message)


def score_answer(position: positions.Position, with_sgf: bool = False, with_svg: bool = False) -> dict:
    """Score a position: the ``seog score --json`` object, plus the annotated SGF and SVG when asked."""
    from seog.scoring.report import to_dict
    from seog.scoring.score import default_model, score_position

    score = score_position(position.board, rules=position.rules, komi=position.komi,
                           handicap=position.handicap, prisoners=position.prisoners,
                           dead=position.dead, overrides=position.overrides, unfinished=position.unfinished)
    score = replace(score, notes=position.notes + score.notes)  # the loader's, then the scorer's
    game = position.game
    answer = to_dict(score, game.recorded or None if game else None)
    answer["seog_version"], answer["model"] = _version(), model_name(default_model())
    if with_sgf and game is not None:
        from seog.scoring.annotated import annotated_sgf
        answer["annotated_sgf"] = annotated_sgf(game, score).decode("utf-8")
    if with_svg:
        from seog.scoring.svg import render_svg
        answer["svg"] = render_svg(position.board.grid, score, recorded=answer.get("recorded_result"))
    return answer


def model_info(model) -> dict:
    """Name, version and model-card figures of the model in use; says so plainly when there is none.

    A shipped model (``classifiers.model_file.Model``) keeps its card in ``meta``: the cascade
    layout, the uncertainty margin and how it was trained (nets, epochs, test errors, ...).
    """
    if model is None:
        return {"name": model_name(model), "version": None, "trained": False,
                "description": "no trained model is shipped: blocks the static pass leaves unsettled are "
                               "decided by a simple heuristic (eye space, then nearby stones)",
                "card": {}}
    meta = dict(getattr(model, "meta", None) or {})
    layout = getattr(model, "layout", meta.get("layout"))
    nets = " -> ".join("x".join(str(u) for u in sizes) for sizes in layout or [])
    card = json.loads(json.dumps(meta, default=str))  # JSON-safe whatever the trainer stored
    return {"name": model_name(model),
            "version": _text_or_none(meta.get("model_version") or meta.get("created")
                                     or (f"format {meta['version']}" if "version" in meta else None)),
            "trained": True,
            "description": str(meta.get("description")
                               or f"cascade of {len(layout or [])} MLPs ({nets}) deciding unsettled blocks"),
            "card": card}


def model_name(model) -> str:
    """The name the answers give the model in use ('heuristic' without one)."""
    if model is None:
        return "heuristic"
    return str((getattr(model, "meta", None) or {}).get("name") or "seog-cascade")


def _text_or_none(value) -> str | None:
    return None if value is None else str(value)


def _add_error_handlers(app: FastAPI, max_body: int) -> None:
    async def bad_input(request: Request, exc: ValueError) -> JSONResponse:
        """seog's own input errors are the caller's fault: 400. Any other ValueError is a bug: a
        500, logged with its traceback."""
        return JSONResponse({"detail": _clip_quotes(str(exc)) or type(exc).__name__}, status_code=400)

    for error_class in positions.INPUT_ERRORS:
        app.add_exception_handler(error_class, bad_input)

    @app.exception_handler(RequestValidationError)
    async def bad_shape(request: Request, exc: RequestValidationError) -> JSONResponse:
        """422, listing the first MAX_LISTED_ERRORS errors (and how many more there are)."""
        found = [_json_error(e, exc.body) if _body_not_json(e) else _typed(e) for e in exc.errors()]
        if [(e.get("type"), tuple(e.get("loc", ()))) for e in found] == [("missing", ("body",))]:
            found = [{"loc": ("body",), "msg": "empty; send a JSON object with 'sgf' or 'board'",
                      "type": "missing"}]
        errors = [_plain(e) for e in found[:MAX_LISTED_ERRORS]]
        more = len(found) - len(errors)
        detail = "; ".join(_describe(e) for e in errors) + (f"; and {more} more errors" if more else "")
        return JSONResponse({"detail": detail, "errors": errors}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = exc.detail
        if exc.status_code == 413:
            detail = _too_large(max_body)
        elif exc.status_code == 400 and exc.__cause__ is not None and detail == FASTAPI_PARSE_ERROR:
            detail = _unreadable_body(exc.__cause__)
        return JSONResponse({"detail": str(detail)}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": f"internal error while handling {request.url.path}: "
                                       f"{type(exc).__name__}: {exc}"}, status_code=500)


FASTAPI_PARSE_ERROR = "There was an error parsing the body"  # FastAPI's 400 for any body json.loads fails on


def _unreadable_body(cause: BaseException) -> str:
    """What was wrong with a body FastAPI could not parse (its own answer named nothing): bytes
    that are not UTF-8, or JSON nested deeper than the parser goes."""
    if isinstance(cause, UnicodeDecodeError):
        return (f"the body is not UTF-8 (byte 0x{cause.object[cause.start]:02x} at offset {cause.start}): "
                "send the JSON in UTF-8")
    if isinstance(cause, RecursionError):
        return "the JSON body is nested too deep to read (a request is a few levels deep)"
    return f"the body could not be read as JSON ({type(cause).__name__})"


def _body_not_json(error: dict) -> bool:
    """FastAPI's error for a body json.loads refused: located at ('body', character offset)."""
    loc = tuple(error.get("loc", ()))
    return error.get("type") == "json_invalid" and len(loc) == 2 and isinstance(loc[1], int)


def _json_error(error: dict, doc) -> dict:
    """FastAPI's 'JSON decode error' at a character offset, as what and where: 'not JSON:
    Expecting value at line 2 column 7'."""
    offset, where = error["loc"][-1], ""
    if isinstance(doc, str):
        line, column = doc.count("\n", 0, offset) + 1, offset - doc.rfind("\n", 0, offset)
        where = f" at line {line} column {column}"
    why = str((error.get("ctx") or {}).get("error") or "malformed")
    return {"loc": ("body",), "msg": f"not JSON: {why}{where}", "type": "json_invalid"}


def _typed(error: dict) -> dict:
    """A value of the wrong JSON type named with what it should be: pydantic's 'Input should be a
    valid integer' left a caller wondering what was wrong with ``"size": true``."""
    kind = {"int_type": "an integer", "float_type": "a number", "bool_type": "true or false"}.get(error.get("type"))
    if kind is None or "input" not in error:
        return error
    return {**error, "msg": f"should be {kind}, not {clip(json.dumps(error['input'], default=str))}"}


def _plain(error: dict) -> dict:
    """A validation error reduced to JSON-safe fields."""
    return {"loc": [str(p) for p in error.get("loc", ())], "msg": str(error.get("msg", "")),
            "type": str(error.get("type", ""))}


def _describe(error: dict) -> str:
    loc = [p or "''" for p in error["loc"] if p != "body"]  # a key "" named, not left blank
    where = ".".join(loc) if loc else "body"
    msg = error["msg"]
    msg = msg.removeprefix("Value error, ")
    return f"{where}: {msg}"


@functools.cache
def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("seog")
    except PackageNotFoundError:
        return "dev"


def _origins_from_env() -> list[str]:
    """The origins ``seog serve --cors-origin`` passes to each worker process (comma-separated)."""
    return [o.strip() for o in os.environ.get("SEOG_CORS_ORIGINS", "").split(",") if o.strip()]


app = create_app(cors_origins=_origins_from_env())
