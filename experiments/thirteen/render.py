"""Write the committed evaluation tables of Friday the 13th into the pages that show them.

    python experiments/thirteen/render.py          # rewrite the sections
    python experiments/thirteen/render.py --check  # exit 1 if a section is stale

Each results file is the JSON ``friday thirteen eval --out`` wrote (the command is in
experiments/thirteen/README.md); its table is the one the command printed. The sections sit
between ``<!-- thirteen-results:start -->`` and ``<!-- thirteen-results:end -->`` in
experiments/thirteen/README.md and docs/thirteen.md.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from friday_agents.thirteen.evaluation import VALIDATION_FIRST_DEAL, compare
from friday_agents.thirteen.report import format_table

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
#: The results files, in the order the section shows them.
RESULTS = ("heuristic-vs-random.json", "net-vs-heuristic.json", "search-vs-heuristic.json")
PAGES = (HERE / "README.md", REPO / "docs" / "thirteen.md")
START, END = "<!-- thirteen-results:start -->", "<!-- thirteen-results:end -->"
RUN_START, RUN_END = "<!-- thirteen-run:start -->", "<!-- thirteen-run:end -->"


def section() -> str:
    """The tables of every committed results file, with the network's hash."""
    parts = []
    for name in RESULTS:
        path = HERE / name
        if not path.is_file():
            continue
        reports = json.loads(path.read_text(encoding="utf-8"))["reports"]
        parts.append(f"`experiments/thirteen/{name}`:\n\n{format_table(reports)}")
        for spec, model in reports[0].get("models", {}).items():
            parts.append(f"`{spec}` is the file of SHA-256 `{model['sha256']}`.")
    return "\n\n".join(parts)


def run_summary() -> str:
    """The training run as curve.csv records it: its length, CPU time and the chosen network."""
    with (HERE / "curve.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    best = max(rows, key=lambda row: float(row["val_win_rate"]))  # the first of the best
    last = rows[-1]
    deals = json.loads((HERE / "config.json").read_text(encoding="utf-8"))["eval_deals"]
    validation = range(VALIDATION_FIRST_DEAL, VALIDATION_FIRST_DEAL + deals)
    base = compare("heuristic", "heuristic", 4, validation)["result"]
    return (
        f"The run: {last['updates']} PPO updates, {int(last['transitions']):,} network moves "
        f"(the imitation's included), {float(last['cpu_seconds']) / 60:.1f} CPU-minutes. "
        f"`net13.npz` is `best.npz`: validation win rate {best['val_win_rate']} % (bad luck "
        f"{best['val_bad_luck']}) at update {best['updates']}; the last update's "
        f"{last['val_win_rate']} %. The heuristic in the same seat on the same {deals} "
        f"validation deals: {base['win_rate']} % (bad luck {base['bad_luck']})."
    )


def _replace(page: str, start: str, end: str, body: str) -> str:
    if start not in page:
        return page
    before, rest = page.split(start, 1)
    _, after = rest.split(end, 1)
    return f"{before}{start}\n{body}\n{end}{after}"


def rendered(page: str) -> str:
    page = _replace(page, START, END, section())
    return _replace(page, RUN_START, RUN_END, run_summary())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Write the committed results' tables into docs/thirteen.md and "
        "experiments/thirteen/README.md.",
        allow_abbrev=False,
    )
    parser.add_argument("--check", action="store_true", help="only say which page is stale")
    check = parser.parse_args(argv).check
    stale = []
    for path in PAGES:
        text = path.read_text(encoding="utf-8")
        new = rendered(text)
        if new != text:
            stale.append(path.relative_to(REPO).as_posix())
            if not check:
                path.write_text(new, encoding="utf-8")
    if stale and check:
        print(f"stale results sections: {', '.join(stale)} (run {Path(__file__).name})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
