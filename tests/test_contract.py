"""The OpenAPI document against the server: schemathesis sends requests the document admits and
requests it refuses, and each answer must be the one the document states. A request the schema
admits is answered 2xx, or 400 where JSON Schema cannot say what is wrong (SGF text that is not a
game, rows that are not a square, an override on an empty point): never 422. A request it refuses
is answered 4xx. ``SEOG_CONTRACT_EXAMPLES`` sets the examples per operation (default 25)."""

import os
import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

from seog.api import positions, schemas
from seog.api.http import create_app
from seog.features.board import Board
from seog.scoring.rules import get_rules

FULL_BOARD = Board.from_rows(["X" * 25] * 25)
EXAMPLES = int(os.environ.get("SEOG_CONTRACT_EXAMPLES", "25"))
CONFIG = SchemathesisConfig.from_dict({
    "generation": {"max-examples": EXAMPLES, "mode": "all"},
    "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "400"]}},
})
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(), config=CONFIG)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_every_answer_is_the_one_the_document_states(case):
    case.call_and_validate()


def test_the_document_asks_for_one_position_and_a_file_that_is_not_empty():
    """The server refuses a body with neither or both of them, and an empty upload: so does the schema."""
    document = create_app().openapi()
    request = document["components"]["schemas"]["ScoreRequest"]
    assert [branch["required"] for branch in request["oneOf"]] == [["sgf"], ["board"]]
    assert request["oneOf"][0]["properties"]["size"] == {"type": "null"}  # a board's alone
    upload = document["paths"]["/v1/score/sgf"]["post"]["requestBody"]["content"]["multipart/form-data"]
    form = document["components"]["schemas"][upload["schema"]["$ref"].rsplit("/", 1)[-1]]
    assert form["required"] == ["file"] and form["properties"]["file"]["minLength"] == 1
    assert form["additionalProperties"] is False and upload["encoding"]["overrides"]["contentType"] == "application/json"
    assert not [name for name, field in form["properties"].items() if "anyOf" in field]  # no null in a form


# ---- the schema's patterns and the server's own checks say the same -----------------------------

@settings(max_examples=40)
@given(st.from_regex(schemas.RULES_PATTERN, fullmatch=True).filter(lambda t: len(t) <= schemas.MAX_RULES_LENGTH))
def test_every_rules_name_the_pattern_admits_names_rules(name):
    positions.check_rules_name(name)
    assert get_rules(name).name in ("japanese", "korean", "chinese", "aga", "nz", "tromp-taylor")


@pytest.mark.parametrize("name", ["Japanese", "CHINESE rules", " tt ", "new_zealand", "Tromp Taylor", "aga rule"])
def test_rules_names_in_any_case_and_with_aliases_stay_admitted(name):
    assert re.search(schemas.RULES_PATTERN, name)
    positions.check_rules_name(name)


@pytest.mark.parametrize("name", ["french", "  ", "japanese\n", "\u212aorean", "japanese  rules", "rules"])
def test_a_rules_name_outside_the_pattern_is_unknown_rules(name):
    assert not re.fullmatch(schemas.RULES_PATTERN, name)
    with pytest.raises(ValueError, match="unknown rules"):
        positions.check_rules_name(name)


@settings(max_examples=40)
@given(st.from_regex(schemas.ROW_PATTERN, fullmatch=True))
def test_a_square_of_a_row_the_pattern_admits_is_a_board(row):
    points = len(row.replace(" ", "").replace("\t", ""))
    assert set(row) <= schemas.ROW_CHARACTERS and 2 <= points <= 25
    assert positions.from_rows([row] * points).board.size == points


@settings(max_examples=40)
@given(st.from_regex(schemas.VERTEX_PATTERN, fullmatch=True).filter(lambda v: len(v) <= schemas.MAX_VERTEX_LENGTH))
def test_every_vertex_the_pattern_admits_is_a_point_or_off_the_board(vertex):
    try:
        overrides = positions.parse_overrides(FULL_BOARD, [vertex], [])
    except ValueError as exc:
        assert "is off a 25x25 board" in str(exc)
    else:
        assert len(overrides) == 1
