"""Input an attacker hands a command: each is refused in one line with exit status 2 and no
traceback, nothing written. JSON numbers no reader can hold (R9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from friday_agents.cli import main
from friday_env.json_text import JsonTextError, parse_json

HUGE_INT = "1" * 5000


def _one_line_refusal(capsys: pytest.CaptureFixture[str], status: int, *names: str) -> str:
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for name in names:
        assert name in err, err
    return err


# ------------------------------------------------------------------ R9: JSON numbers


@pytest.mark.parametrize(
    "text, reason",
    [
        (HUGE_INT, "5000 digits"),
        ("-" + "9" * 4301, "4301 digits"),
        ("1e400", "past the float range"),
        ('{"x": [-1e400]}', "past the float range"),
        ("1" * 400 + ".5", "past the float range"),
        ("NaN", "not a JSON number"),
    ],
    ids=["5000-digits", "4301-digits", "1e400", "nested-1e400", "long-float", "NaN"],
)
def test_a_number_no_reader_can_hold_is_refused(text: str, reason: str) -> None:
    with pytest.raises(JsonTextError, match=reason):
        parse_json(text)


def test_numbers_within_range_are_read() -> None:
    assert parse_json("[1.5e300, -2, 0.1]") == [1.5e300, -2, 0.1]
    assert parse_json("9" * 4300) == int("9" * 4300)


@pytest.mark.parametrize("command", ["view", "replay"])
@pytest.mark.parametrize(
    "name, text, reason",
    [
        ("huge.jsonl", '{"format": ' + HUGE_INT + "}\n", "5000 digits"),
        ("huge.json", '{"format": 1, "seed": ' + HUGE_INT + "}\n", "5000 digits"),
        ("inf.jsonl", '{"format": 1e400}\n', "past the float range"),
    ],
    ids=["huge-int-line", "huge-int-record", "1e400"],
)
def test_a_record_with_an_impossible_number_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str, text: str,
    reason: str,
) -> None:  # fmt: skip
    path = tmp_path / name
    path.write_text(text)
    args = [command, str(path)] + (["--all"] if command == "replay" else [])
    _one_line_refusal(capsys, main(args), str(path), reason)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
