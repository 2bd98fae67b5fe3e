"""``friday view`` pages in a real headless Chromium: step, jump and filter as a person would,
and check that what the page shows equals the engine's state at that decision.

Needs chromium, chromedriver (Debian: ``apt-get install chromium chromium-driver``) and
selenium; without them the tests skip, except under ``CI=true``, where a missing browser is a
failure. The browser runs with every network feature off and every host name unresolvable:
the page must work offline. A screenshot of each page goes to ``test-artifacts/`` (or
``$FRIDAY_TEST_ARTIFACTS``).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from optional import require_modules, unavailable
from viewer_support import (
    decisions_of_interest,
    engine_states,
    expected,
    fight_openings,
    heuristic_record,
)

from friday_agents.cli import main
from friday_env import GameRecord
from friday_env.viewer import ViewerGame, write_viewer

ARTIFACTS = Path(
    os.environ.get("FRIDAY_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "test-artifacts")
)
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    "--host-resolver-rules=MAP * ~NOTFOUND",  # nothing resolves: the page must need nothing
    "--window-size=1280,720",
)


def _browser_paths() -> tuple[str, str]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        unavailable(
            "no chromium/chromedriver on PATH (Debian: apt-get install -y chromium chromium-driver)"
        )
    return chromium, driver  # type: ignore[return-value]


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    require_modules("selenium", install="pip install -e '.[dev]'")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium, chromedriver = _browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    browser = webdriver.Chrome(options=options, service=Service(executable_path=chromedriver))
    browser.set_page_load_timeout(60)
    yield browser
    browser.quit()


# ------------------------------------------------------------------- reading the page


def _by_id(browser, name: str):
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, name)


def _wait_for(browser, script: str, what: str) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 30).until(lambda b: b.execute_script(script), message=what)


def _open(browser, path: Path) -> None:
    browser.get(path.resolve().as_uri())
    _wait_for(browser, "return document.body.dataset.ready === 'true'", "the page never got ready")


def _decision(browser) -> int:
    return int(browser.execute_script("return document.body.dataset.decision"))


def _shown(browser) -> dict:
    """What the page shows now, in the shape of ``viewer_support.expected``."""
    from selenium.webdriver.common.by import By

    hazard = browser.find_elements(By.CSS_SELECTOR, "#hazard .name")
    cards = []
    for node in browser.find_elements(By.CSS_SELECTOR, "#table .card"):
        classes = set(node.get_attribute("class").split())
        cards.append(
            {
                "card": node.get_attribute("data-card"),
                "side": "free" if "free" in classes else "paid",
                "value": int(node.find_element(By.CSS_SELECTOR, ".value").text),
                "used": "used" in classes,
                "doubled": "doubled" in classes,
                "destroyed": "destroyed" in classes,
            }
        )
    taken = browser.find_elements(By.CSS_SELECTOR, "#actions li.taken")
    return {
        "life": int(_by_id(browser, "life").text),
        "reserve": int(_by_id(browser, "reserve").text),
        "step": _by_id(browser, "step").text,
        "hazard": hazard[0].text if hazard else None,
        "hazard_value": int(_by_id(browser, "hazard-value").text) if hazard else None,
        "table": cards,
        "taken": int(taken[0].get_attribute("data-action")) if taken else None,
        "legal": [
            int(li.get_attribute("data-action"))
            for li in browser.find_elements(By.CSS_SELECTOR, "#actions li[data-action]")
        ],
    }


def _check(browser, states, actions, where: str) -> int:
    index = _decision(browser)
    taken = actions[index] if index < len(actions) else None
    assert _shown(browser) == expected(states[index], taken), f"{where}: decision {index}"
    return index


def _press(browser, key: str, times: int = 1) -> None:
    """Keys typed to the page (the focused element, as a person types)."""
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(times):
        ActionChains(browser).send_keys(key).perform()


def _slide_to(browser, index: int) -> None:
    """Move the slider as a drag does: set its value and fire ``input``."""
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input', {bubbles: true}));",
        index,
    )


def _screenshot(browser, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(ARTIFACTS / name))


# ---------------------------------------------------------------------------- tests


def test_one_game_steps_and_jumps_like_the_engine(driver, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    record = heuristic_record()
    states, actions = engine_states(record), record.actions
    page = write_viewer([ViewerGame(record, agent="heuristic", deal=0)], tmp_path / "game.html")
    _open(driver, page)
    assert _check(driver, states, actions, "opened") == 0
    _press(driver, Keys.ARROW_RIGHT, 3)
    assert _check(driver, states, actions, "three steps forward") == 3
    _press(driver, Keys.ARROW_LEFT)
    assert _check(driver, states, actions, "one back") == 2
    _by_id(driver, "next").click()
    assert _check(driver, states, actions, "the next button") == 3

    marks = decisions_of_interest(states)
    for name, index in marks.items():
        _slide_to(driver, index)
        assert _check(driver, states, actions, f"slider to the first {name}") == index
        if name != "pirate":
            assert driver.find_elements(By.CSS_SELECTOR, f"#table .card.{name}")
    _screenshot(driver, "viewer-pirate-fight.png")

    jump = _by_id(driver, "jump")
    jump.clear()
    jump.send_keys(str(marks["doubled"] + 1), Keys.ENTER)  # the page counts from 1
    assert _check(driver, states, actions, "typed jump") == marks["doubled"]
    _screenshot(driver, "viewer.png")

    openings = fight_openings(states)
    _slide_to(driver, 0)
    for expected_index in openings[:3]:
        _press(driver, "f")
        assert _check(driver, states, actions, "key F") == expected_index
    _by_id(driver, "next-fight").click()
    assert _check(driver, states, actions, "next-fight button") == openings[3]
    _press(driver, "F")  # Shift+F: back to the fight before
    assert _check(driver, states, actions, "Shift+F") == openings[2]
    _press(driver, Keys.END)
    assert _check(driver, states, actions, "End") == len(actions)
    assert "won" in _by_id(driver, "score-line").text or "lost" in _by_id(driver, "score-line").text
    _press(driver, Keys.HOME)
    assert _check(driver, states, actions, "Home") == 0
    assert driver.execute_script("return performance.getEntriesByType('resource').length") == 0


def test_an_evaluation_dir_lists_filters_and_opens_games(driver, tmp_path, capsys):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    out = tmp_path / "eval"
    argv = ["eval", "--agents", "random,heuristic", "--levels", "1,2", "--games", "2"]
    assert main([*argv, "--save-games", "--workers", "1", "--no-progress", "--out", str(out)]) == 0
    assert main(["view", str(out)]) == 0
    capsys.readouterr()
    _open(driver, out / "games.html")
    rows = driver.find_elements(By.CSS_SELECTOR, "#game-list button")
    assert len(rows) == 8
    Select(_by_id(driver, "filter-agent")).select_by_visible_text("heuristic")
    Select(_by_id(driver, "filter-level")).select_by_visible_text("2")
    rows = driver.find_elements(By.CSS_SELECTOR, "#game-list button")
    assert [r.text.split(" lost")[0].split(" won")[0] for r in rows] == [
        "heuristic · L2 · deal 0",
        "heuristic · L2 · deal 1",
    ]
    assert _by_id(driver, "games-count").text.startswith("2 of 8 games shown")
    rows[1].click()
    # the list is sorted by agent, level and deal: heuristic L1 d0, L1 d1, L2 d0, L2 d1 = game 3
    _wait_for(driver, "return document.body.dataset.game === '3'", "the game did not open")
    line = next(
        row
        for row in map(json.loads, (out / "games.jsonl").read_text().splitlines())
        if (row["agent"], row["level"], row["index"]) == ("heuristic", 2, 1)
    )
    record = GameRecord.from_json(json.dumps(line["record"]))
    states = engine_states(record)
    assert "heuristic, level 2, deal 1" in _by_id(driver, "game-title").text
    assert _check(driver, states, record.actions, "opened from the list") == 0
    _slide_to(driver, len(record.actions) // 2)
    _check(driver, states, record.actions, "slider")
    result = "won" if line["won"] else "lost"
    Select(_by_id(driver, "filter-result")).select_by_visible_text(result)
    shown = [r.text for r in driver.find_elements(By.CSS_SELECTOR, "#game-list button")]
    assert shown and all(result in text for text in shown)
    _screenshot(driver, "viewer-list.png")
