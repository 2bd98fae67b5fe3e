"""The measuring scripts' result output (`print_and_write_json`): what is printed is what the
result file holds, and no file is written without one asked for."""

from __future__ import annotations

import json

from friday_agents.harness.files import print_and_write_json


def test_the_printed_result_is_the_result_file(tmp_path, capsys):
    result = {"level": 4, "ratio": {"guided:top=3": 1.91}}
    out = tmp_path / "result.json"
    print_and_write_json(result, out)
    printed = capsys.readouterr().out
    assert printed == out.read_text()
    assert json.loads(printed) == result


def test_without_a_result_file_it_only_prints(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    print_and_write_json({"a": 1}, None)
    assert json.loads(capsys.readouterr().out) == {"a": 1}
    assert list(tmp_path.iterdir()) == []
