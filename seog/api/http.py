"""The REST API: score a finished game sent as SGF text, an uploaded file or a JSON board.

``create_app()`` builds the FastAPI application; ``app`` is the one ``seog serve`` runs. Bad input
is answered 4xx with ``{"detail": "<what is wrong>"}``; an unexpected failure is a 500 with the same
shape, never a bare traceback (``api.errors``). Scoring runs in worker threads through one limiter
of as many threads as there are cores (more would only share the GIL and finish every request
late), so a count never blocks the event loop, and ``/v1/health`` and ``/v1/model`` answer on the loop at once
however many counts are queued. The JSON body is decoded and validated on the loop, as FastAPI does:
a 1 MiB body takes ~1 ms as SGF text, at worst ~35 ms as tiny JSON values, and a worker thread would
not free the loop meanwhile (``json`` and pydantic hold the GIL while they parse).
"""

from __future__ import annotations

import json
import os
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated

import anyio
from fastapi import Depends, FastAPI, File, Form, Request, UploadFile
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.routing import APIRoute
from fastapi_offline import FastAPIOffline
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from seog import cores, installed_version
from seog.api import positions, schemas
from seog.api.errors import (
    MAX_BODY,
    RESPONSES,
    BodyLimit,
    add_error_handlers,
    check_form_fields,
    read_overrides,
    takes_json,
    takes_upload,
)
from seog.classifiers.model_file import Model
from seog.scoring.request import ScoreRequest

HTTP_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
UPLOAD_FIELDS = frozenset({"file", "rules", "komi", "use_markup", "overrides", "finished", "ignore_result",
                           "annotated_sgf", "svg"})
STATIC_DIR = Path(__file__).resolve().parent / "static"
OVERRIDES_FIELD = 'the caller\'s decisions as JSON, {"dead": ["D4"], "alive": ["Q16"]}, each for the whole block'


def create_app(*, max_body: int = MAX_BODY, static_dir: Path | None = STATIC_DIR,
               score_threads: int | None = None, cors_origins: list[str] | tuple = ()) -> FastAPI:
    """The application: the ``/v1`` API, its docs at ``/docs``, and the web page at ``/`` when
    ``static_dir/index.html`` exists. At most ``score_threads`` counts run at once (default: the
    cores this process may use); the others wait their turn. Browser pages from ``cors_origins``
    may call the API."""
    # /docs from Swagger UI's files in fastapi-offline, not a CDN: a scoring service often runs where
    # nothing outside can be reached (ReDoc's page would still fetch its logo from one: no /redoc)
    app = FastAPIOffline(title="seog", version=installed_version(), lifespan=_load_model_first, redoc_url=None,
                         description="Score End Of Game: decide the dead stones of a finished game of Go and "
                                     "count it.", swagger_ui_parameters={"validatorUrl": None})
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # answers with svg or an SGF copy run to 100 KB
    if cors_origins:  # outermost, so that a 413 carries the CORS headers too
        app.add_middleware(CORSMiddleware, allow_origins=list(cors_origins), allow_methods=["GET", "HEAD", "POST"],
                           allow_headers=["content-type"], max_age=3600)
    add_error_handlers(app, max_body)
    app.state.score_limiter = limiter = anyio.CapacityLimiter(score_threads or cores())

    async def in_worker(work, *args):
        """Run ``work(*args)`` in a worker thread, waiting for one of the limiter's slots."""
        return await anyio.to_thread.run_sync(work, *args, limiter=limiter)

    @app.get("/v1/health", response_model=schemas.Health)
    async def health() -> dict:
        """Liveness, answered on the event loop: never queued behind the counts."""
        return {"status": "ok", "version": installed_version()}

    app.add_api_route("/v1/health", health, methods=["HEAD"], include_in_schema=False)  # uptime monitors

    @app.get("/v1/model", response_model=schemas.ModelInfo)
    async def model() -> dict:
        """The model in use (loaded once per process, as the server starts)."""
        from seog.scoring.score import default_model
        return model_info(default_model())

    @app.post("/v1/score", response_model=schemas.ScoreResponse, response_model_exclude_unset=True,
              responses=RESPONSES, dependencies=[Depends(takes_json)])
    async def score(request: schemas.ScoreRequest) -> dict:
        """Score a position given as SGF text or as board rows (``X`` black, ``O`` white, ``.`` empty)."""
        if request.annotated_sgf and request.sgf is None:
            raise positions.RequestError("annotated_sgf needs SGF input (the game's moves)")
        return await in_worker(score_request, request)

    @app.post("/v1/score/sgf", response_model=schemas.ScoreResponse, response_model_exclude_unset=True,
              responses=RESPONSES, dependencies=[Depends(takes_upload)])
    async def score_upload(http_request: Request,
                           file: Annotated[UploadFile, File(description="an .sgf file")],
                           rules: Annotated[str | None, Form(max_length=schemas.MAX_RULES_LENGTH,
                                                             description=schemas.RULES_FIELD,
                                                             json_schema_extra={"pattern": schemas.RULES_PATTERN})
                                            ] = None,
                           komi: Annotated[float | None, Form(ge=-1000, le=1000, allow_inf_nan=False)] = None,
                           use_markup: Annotated[bool, Form()] = False,
                           overrides: Annotated[str | None, Form(description=OVERRIDES_FIELD)] = None,
                           finished: Annotated[bool | None, Form(description=schemas.FINISHED_FIELD)] = None,
                           ignore_result: Annotated[bool, Form(description=schemas.IGNORE_RESULT_FIELD)] = False,
                           annotated_sgf: Annotated[bool, Form()] = False,
                           svg: Annotated[bool, Form()] = False) -> dict:
        """Score an uploaded SGF file; ``rules`` and ``komi`` override the file's RU and KM, and
        ``overrides`` holds the caller's dead/alive decisions, as in ``POST /v1/score``."""
        check_form_fields(await http_request.form(), UPLOAD_FIELDS)
        data = await file.read()
        if not data.strip():
            raise positions.RequestError("the uploaded file is empty")
        return await in_worker(score_upload_data, data, rules or None, komi, use_markup, annotated_sgf, svg,
                               overrides, finished, ignore_result)

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


def score_request(body: schemas.ScoreRequest) -> dict:
    """The answer to a ``POST /v1/score`` body (read, check and count: the work done in a thread)."""
    return score_answer(positions.from_request(body), body.annotated_sgf, body.svg)


def score_upload_data(data: bytes, rules: str | None, komi: float | None, use_markup: bool,
                      with_sgf: bool, with_svg: bool = False, overrides: str | None = None,
                      finished: bool | None = None, ignore_result: bool = False) -> dict:
    """The answer to an uploaded SGF file (read, check and count: the work done in a thread)."""
    decisions = read_overrides(overrides)
    request = positions.from_sgf(data, rules=rules, komi=komi, use_markup=use_markup,
                                 dead=decisions.dead, alive=decisions.alive, finished=finished,
                                 ignore_result=ignore_result)
    return score_answer(request, with_sgf, with_svg)


def score_answer(request: ScoreRequest, with_sgf: bool = False, with_svg: bool = False) -> dict:
    """Score a request: the ``seog score --json`` object, plus the annotated SGF and SVG when asked."""
    from seog.scoring.report import to_dict
    from seog.scoring.score import default_model, score

    counted = score(request)
    answer = to_dict(counted, request.recorded)
    answer["seog_version"], answer["model"] = installed_version(), model_name(default_model())
    if with_sgf and request.game is not None:
        from seog.scoring.annotated import annotated_sgf
        answer["annotated_sgf"] = annotated_sgf(request.game, counted).decode("utf-8")
    if with_svg:
        from seog.scoring.svg import render_svg
        answer["svg"] = render_svg(request.board.grid, counted, recorded=answer.get("recorded_result"))
    return answer


def model_info(model: Model | None) -> dict:
    """Name, version and model-card figures of the model in use; says so plainly when there is none.

    A shipped model (``classifiers.model_file.Model``) keeps its card in ``meta``: the cascade
    layout, the uncertainty margin and how it was trained (nets, epochs, test errors, ...).
    """
    if model is None:
        return {"name": model_name(model), "version": None, "trained": False,
                "description": "no trained model is shipped: blocks the static pass leaves unsettled are "
                               "decided by a simple heuristic (eye space, then nearby stones)",
                "card": {}}
    meta = dict(model.meta)
    layout = model.layout
    nets = " -> ".join("x".join(str(u) for u in sizes) for sizes in layout)
    card = json.loads(json.dumps(meta, default=str))  # JSON-safe whatever the trainer stored
    return {"name": model_name(model),
            "version": _text_or_none(meta.get("model_version") or meta.get("created")
                                     or (f"format {meta['version']}" if "version" in meta else None)),
            "trained": True,
            "description": str(meta.get("description")
                               or f"cascade of {len(layout)} MLPs ({nets}) deciding unsettled blocks"),
            "card": card}


def model_name(model: Model | None) -> str:
    """The name the answers give the model in use ('heuristic' without one)."""
    if model is None:
        return "heuristic"
    return str(model.meta.get("name") or "seog-cascade")


def _text_or_none(value) -> str | None:
    return None if value is None else str(value)


def _origins_from_env() -> list[str]:
    """The origins ``seog serve --cors-origin`` passes to each worker process (comma-separated)."""
    return [o.strip() for o in os.environ.get("SEOG_CORS_ORIGINS", "").split(",") if o.strip()]


app = create_app(cors_origins=_origins_from_env())
