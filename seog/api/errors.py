"""The REST API's error answers: framework errors reshaped into ``{"detail": "<what is wrong>"}``.

seog's input errors (``positions.INPUT_ERRORS``) are 400s; a body that is not JSON or does not
match the schema a 422 listing what is wrong and where; a body over the limit a 413 naming it
(``BodyLimit``, which also refuses a compressed body, 415), and a body of the wrong content type
a 415 naming what the endpoint takes; an unexpected failure a 500 of the same shape, never a bare
traceback. ``add_error_handlers`` puts the handlers on an application; ``RESPONSES`` documents
them in the OpenAPI document.
"""

from __future__ import annotations

import json
import re

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from seog import clip
from seog.api import positions, schemas

MAX_BODY = 1 << 20  # 1 MiB: a long 19x19 game with comments is well under 100 KiB
MAX_DRAIN = 64 << 20  # a refused body up to 64 MiB is read and dropped, so that its sender sees the 413
MAX_LISTED_ERRORS = 20  # a 422 lists this many; a 1 MiB object of unknown keys made 88,000 (11 MB)
RESPONSES = {
    400: {"model": schemas.Error,
          "description": "the input names no position seog can score, and the detail says why: SGF that is no "
                         "game of Go, an illegal position or move, rows that are not a square of the board's size, "
                         "a handicap the board cannot hold, an override off the board or on an empty point, "
                         "markup the SGF lacks, a value outside a pattern the schema gives (rules, rows, "
                         "vertices); or a body that is not UTF-8 or is nested too deep"},
    413: {"model": schemas.Error, "description": f"the request body is over the size limit ({MAX_BODY} bytes by default)"},
    415: {"model": schemas.Error, "description": "the body is not of the content type the endpoint takes, or is compressed"},
    422: {"model": schemas.Error, "description": "the body is not JSON, or its fields, types or bounds do not match "
                                                 "the schema"},
}


class BodyTooLarge(StarletteHTTPException):
    """A body read past the limit, raised from inside ``BodyLimit``'s receive."""

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


async def takes_json(request: Request) -> None:
    """Refuse (415) a body to ``POST /v1/score`` that is not JSON, naming what it takes: an SGF
    upload sent there got 'body: Input should be a valid dictionary'. A coroutine, as every
    dependency of the API: FastAPI runs a plain function in a thread of its own pool (up to 40,
    made and ended as the load comes and goes)."""
    written, media = _content_type(request)
    if media != "application/json" and not (media.startswith("application/") and media.endswith("+json")):
        raise StarletteHTTPException(415, f"POST /v1/score takes a JSON object (content-type: application/json), "
                                          f"not {written or 'a body without a content type'}; to upload an SGF "
                                          "file, POST it to /v1/score/sgf as multipart/form-data")


async def takes_upload(request: Request) -> None:
    """Refuse (415) a body to ``POST /v1/score/sgf`` that is not a multipart upload, naming what it
    takes: raw SGF sent there (application/x-go-sgf) got 'file: Field required'."""
    written, media = _content_type(request)
    if media != "multipart/form-data":
        raise StarletteHTTPException(415, f"POST /v1/score/sgf takes a multipart/form-data upload with the SGF in "
                                          f"a 'file' field (curl -F file=@game.sgf), not "
                                          f"{written or 'a body without a content type'}; to send SGF text, POST "
                                          "{\"sgf\": \"...\"} to /v1/score as application/json")


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


def add_error_handlers(app: FastAPI, max_body: int) -> None:
    """The handlers that answer every error as ``{"detail"}``: 400 for seog's input errors, 422
    for a body the schema refuses, the framework's own statuses with a detail that names what is
    wrong, 500 for anything else."""
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
