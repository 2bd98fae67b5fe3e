"""CITATION.cff is valid Citation File Format 1.2.0 and agrees with pyproject.toml."""

from __future__ import annotations

import copy
import datetime
import json
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "tests" / "data" / "cff-1.2.0.schema.json"


def _citation() -> dict:
    # CFF is YAML; dates must stay strings for the schema's "date" format, as cffconvert reads them
    return yaml.load((REPO / "CITATION.cff").read_text(), Loader=yaml.BaseLoader)


def _errors(citation: dict) -> list[str]:
    validator = jsonschema.Draft7Validator(
        json.loads(SCHEMA.read_text()), format_checker=jsonschema.FormatChecker()
    )
    return [error.message for error in validator.iter_errors(citation)]


def test_citation_file_is_valid_cff_1_2_0():
    citation = _citation()
    assert citation["cff-version"] == "1.2.0"
    assert _errors(citation) == []


def test_the_schema_check_rejects_a_broken_citation():
    broken = copy.deepcopy(_citation())
    del broken["authors"]
    broken["date-released"] = "24 November 2026"
    errors = _errors(broken)
    assert any("authors" in e for e in errors) and any(
        "date-released" in e or "24 Nov" in e for e in errors
    ), errors


def test_citation_agrees_with_pyproject():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    citation = _citation()
    assert citation["title"] == project["name"]
    assert citation["version"] == project["version"]
    assert citation["license"] == project["license"]
    datetime.date.fromisoformat(citation["date-released"])


@pytest.mark.parametrize("field", ["abstract", "keywords", "message"])
def test_citation_says_what_the_project_is(field):
    assert _citation()[field]
