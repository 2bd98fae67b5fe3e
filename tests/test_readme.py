"""The README's card and environment sections are generated from the code and up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from friday_env import actions as act
from friday_env.docs import main, replace_section, rewrite, section_body
from friday_env.observation import FLAT_LAYOUT, FLAT_SIZE

README = Path(__file__).parent.parent / "README.md"


def test_readme_generated_sections_are_up_to_date():
    text = README.read_text(encoding="utf-8")
    assert rewrite(text) == text, (
        "README.md is out of date: run python -m friday_env.docs README.md"
    )


def test_check_mode_reports_an_outdated_readme(tmp_path, capsys):
    stale = README.read_text(encoding="utf-8").replace("| `genius` |", "| `genious` |")
    path = tmp_path / "README.md"
    path.write_text(stale, encoding="utf-8")
    assert main(["--check", str(path)]) == 1
    assert "out of date" in capsys.readouterr().out
    assert main([str(path)]) == 0
    assert main(["--check", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == README.read_text(encoding="utf-8")


def test_rewrite_touches_only_the_marked_sections_and_needs_the_markers():
    text = (
        "intro\n<!-- section:cards -->\nold\n<!-- /section:cards -->\nmiddle\n"
        "<!-- section:env -->\n<!-- /section:env -->\nend\n"
    )
    new = rewrite(text)
    assert new.startswith("intro\n<!-- section:cards -->\n## Card keys")
    assert "\n<!-- /section:cards -->\nmiddle\n<!-- section:env -->\n## The Gymnasium" in new
    assert new.endswith("<!-- /section:env -->\nend\n")
    assert rewrite(new) == new
    with pytest.raises(ValueError, match="section:env"):
        rewrite("<!-- section:cards --><!-- /section:cards -->")


def test_one_section_splicer_replaces_and_reads_a_body():
    text = "a\n<!-- section:x -->\nold\n<!-- /section:x -->\nb\n"
    new = replace_section(text, "x", "new body\n")
    assert new == "a\n<!-- section:x -->\nnew body\n<!-- /section:x -->\nb\n"
    assert section_body(new, "x") == "new body"
    assert replace_section(new, "x", section_body(new, "x")) == new
    for broken in ("<!-- /section:x --><!-- section:x -->", text + text, "no markers"):
        with pytest.raises(ValueError, match="section:x"):
            replace_section(broken, "x", "")


def test_readme_tables_hold_the_codes_numbers():
    text = README.read_text(encoding="utf-8")
    assert f"Discrete({act.NUM_ACTIONS})" in text
    assert f"Box(float32, ({FLAT_SIZE},))" in text
    for piece in FLAT_LAYOUT.pieces:
        assert f"| {FLAT_LAYOUT.offsets[piece.name]} | {piece.size} | `{piece.name}` |" in text
    assert f"| {act.USE_0}–{act.TARGET_0 - 1} | `USE_k` |" in text
    assert "| `very stupid` | aging | -3 |" in text


def test_readme_quickstart_runs(capsys):
    text = README.read_text(encoding="utf-8")
    section = text[text.index("<!-- section:env -->") :]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    namespace: dict = {}
    exec(compile(code, "README quickstart", "exec"), namespace)
    assert namespace["terminated"] is True
    assert namespace["reward"] in (-1.0, 1.0)
    assert "draw a free card" in capsys.readouterr().out
