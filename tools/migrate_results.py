"""Add to every committed results file the resolved spec of each agent it names: what played
(run once; kept as the record of how the entries of the results before it were made).

Results written since store, beside each spec as typed, its resolved spec
([`friday_agents.players.resolved`][friday_agents.players.resolved]: every option, each model
by role and SHA-256). Those committed before stored the spec alone, whose meaning changed when
a study changed ``guided``'s defaults or gave the role ``net`` a new network; until this
migration three rewriters in ``players/search/guided.py`` spelled such specs out by the date of
their run. They live here now, the only place they are needed, with the changes they encode:

- the level-4 leaf study's defaults of ``guided``: f93f283, 2026-11-26 23:09 UTC
  (`as_before_leaf_study` spells out a run played before it);
- the level-4 breadth study's ``top`` per level: e782e21, 2026-11-27 01:17 UTC
  (`as_before_breadth_study`);
- the net-scale study's network for ``net``: f8cfc78, 2026-11-27 05:02 UTC
  (`as_before_net_scale`).

A run's time is the commit that first added its games (else its results file). The leaf
study's own runs (``experiments/level4-value/``) were committed after its change but played
before it (`PLAYED_BEFORE_LEAF_STUDY`). Each model's SHA-256 is that of the file as git held it
at the run's time (the role's file then, e.g. ``net.npz`` for ``net-v1`` before it was
copied), else of the file today. Every migrated entry says so in ``"migrated"``.

Run from the repository root: ``python tools/migrate_results.py [--check]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

from friday_agents.players.resolved import resolve_spec

REPO = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------- the rewriters of before

#: ``guided`` as it was before the level-4 leaf study (its prior, value and ``top`` then).
BEFORE_LEAF_STUDY = "guided:prior=guided-prior:value=guided-value-per-level:top=1"
#: ``guided`` between the level-4 leaf study and the level-4 breadth study.
BEFORE_BREADTH_STUDY = "guided:top=1"
#: The network the role ``net`` named before the net-scale study.
NET_V1_ROLE = "net-v1"
#: The options that name a policy network by its role.
NETWORK_OPTIONS = ("prior", "rollout", "model")


def as_before_leaf_study(spec: str) -> str:
    """A ``guided`` spec with the defaults of before the level-4 leaf study for the options
    it leaves out; any other spec as it is."""
    return _spelled_out(spec, BEFORE_LEAF_STUDY)


def as_before_breadth_study(spec: str) -> str:
    """A ``guided`` spec without ``top`` with ``top=1``; any other spec as it is."""
    return _spelled_out(spec, BEFORE_BREADTH_STUDY)


def as_before_net_scale(spec: str) -> str:
    """``net`` without a model is ``net:model=net-v1``, and ``prior=net``, ``rollout=net``
    and ``model=net`` name ``net-v1``; any other spec as it is."""
    name, *options = spec.split(":")
    options = [_as_net_v1(option) for option in options]
    if name == "net" and not any(o.partition("=")[0] == "model" and o != "model=" for o in options):
        options = [o for o in options if o != "model="] + [f"model={NET_V1_ROLE}"]
    return ":".join([name, *options])


def _as_net_v1(option: str) -> str:
    key, _, value = option.partition("=")
    return f"{key}={NET_V1_ROLE}" if key in NETWORK_OPTIONS and value == "net" else option


def _spelled_out(spec: str, then: str) -> str:
    name, *options = spec.split(":")
    if name != "guided":
        return spec
    given = dict(option.partition("=")[::2] for option in options)
    added = [o for o in then.split(":")[1:] if o.partition("=")[0] not in given]
    if given.get("prior") == "":
        added = [o for o in added if o.partition("=")[0] != "top"]
    return ":".join([name, *options, *added])


# ------------------------------------------------------------------ when a run played

LEAF_STUDY_CHANGED = "2026-11-26 23:09"  # f93f283
BREADTH_STUDY_CHANGED = "2026-11-27 01:17"  # e782e21
NET_SCALE_CHANGED = "2026-11-27 05:02"  # f8cfc78
#: Runs committed after the leaf study's change that were played before it (its own runs).
PLAYED_BEFORE_LEAF_STUDY = ("experiments/level4-value/",)
_DATE = "--date=format-local:%Y-%m-%d %H:%M"


def as_played(spec: str, played_at: str, path: str) -> tuple[str, list[str]]:
    """The spec that plays today as ``spec`` played at ``played_at`` (a run in ``path``),
    and the rewriters that made it."""
    rewriters: list[Callable[[str], str]] = []
    if played_at < LEAF_STUDY_CHANGED or path.startswith(PLAYED_BEFORE_LEAF_STUDY):
        rewriters.append(as_before_leaf_study)
    elif played_at < BREADTH_STUDY_CHANGED:
        rewriters.append(as_before_breadth_study)
    if played_at < NET_SCALE_CHANGED:
        rewriters.append(as_before_net_scale)
    used = []
    for rewrite in rewriters:
        before, spec = spec, rewrite(spec)
        if spec != before:
            used.append(rewrite.__name__)
    return spec, used


def _git(*args: str) -> str:
    env = {**os.environ, "TZ": "UTC"}
    done = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True, env=env)
    return done.stdout


def first_commit_time(path: str) -> str | None:
    """When ``path`` was first committed (UTC, minutes), following renames."""
    lines = _git("log", "--follow", "--diff-filter=A", _DATE, "--format=%cd", "--", path)
    return lines.split()[-2] + " " + lines.split()[-1] if lines.strip() else None


def played_at(results: Path) -> str:
    """A run's time: the first commit of its games, else of its results file."""
    games = results.parent / "games.jsonl"
    for path in (games, results):
        if path.exists():
            found = first_commit_time(path.relative_to(REPO).as_posix())
            if found:
                return found
    raise SystemExit(f"migrate_results.py: {results} is not committed")


@cache
def _history(path: str) -> tuple[tuple[str, str, str], ...]:
    """(time, commit, path then) of each commit that changed ``path``, newest first."""
    out = _git("log", "--follow", _DATE, "--format=@%cd\t%H", "--name-only", "--", path)
    entries, head = [], None
    for line in out.splitlines():
        if line.startswith("@"):
            head = line[1:].split("\t")
        elif line.strip() and head:
            entries.append((head[0], head[1], line.strip()))
    return tuple(entries)


def sha256_then(path: str, when: str) -> str | None:
    """The SHA-256 of ``path`` as git held it at ``when`` (its newest version at or before),
    or None if git held no version then."""
    for time, commit, then in _history(path):
        if time <= when:
            blob = subprocess.run(
                ["git", "show", f"{commit}:{then}"], cwd=REPO, capture_output=True, check=False
            )
            return hashlib.sha256(blob.stdout).hexdigest() if blob.returncode == 0 else None
    return None


def migrated_entry(spec: str, defaults: dict[str, Any], when: str, path: str) -> dict[str, Any]:
    """The resolved spec of ``spec`` as it played at ``when`` (see the module docstring)."""
    played, used = as_played(spec, when, path)
    entry = resolve_spec(played, **defaults)
    entry["spec"] = spec
    for model in entry["models"]:
        then = sha256_then(model["path"], when)  # also for a file deleted since
        if then is not None:
            model["sha256"] = then
        else:
            model["sha256_of"] = "the file today (git held no version at the run's time)"
    entry["migrated"] = (
        f"tools/migrate_results.py, run of {when} UTC"
        + (f", spelled out by {' and '.join(used)}" if used else "")
        + (f": {played}" if played != spec else "")
    )
    return entry


# ------------------------------------------------------------------------ the files


def tracked(pattern: str) -> list[Path]:
    return [REPO / name for name in _git("ls-files", pattern).splitlines()]


def evaluation_results() -> Iterator[tuple[Path, Callable[[dict], dict]]]:
    """Every committed ``friday eval`` results file, and how to add its resolved specs."""
    for path in tracked("*.json"):
        text = path.read_text(encoding="utf-8")
        if '"friday-env/evaluation-results"' not in text:
            continue
        when = played_at(path)
        rel = path.relative_to(REPO).as_posix()

        def add(doc: dict, when: str = when, rel: str = rel) -> dict:
            config = doc["config"]
            defaults = {"sims": config["search_sims"]}
            resolved = {s: migrated_entry(s, defaults, when, rel) for s in config["agents"]}
            return _insert_after(doc, "config", "resolved", resolved)

        yield path, add


def bench_results() -> Iterator[tuple[Path, Callable[[dict], dict]]]:
    """The benchmark files whose tables name agents: each agent's resolved spec."""
    speeds = REPO / "benchmarks/agent_speeds.json"

    def add_speeds(doc: dict) -> dict:
        when = doc["date"].removesuffix(" UTC")
        agents = dict.fromkeys(row["agent"] for row in doc["rows"])
        defaults = {"sims": doc["search_sims"]}
        resolved = {a: migrated_entry(a, defaults, when, "benchmarks/") for a in agents}
        return _insert_after(doc, "rows", "resolved", resolved)

    yield speeds, add_speeds
    for name in ("benchmarks/results.json", "benchmarks/results-check.json"):

        def add_bench(doc: dict, name: str = name) -> dict:
            when = doc["meta"]["date"].removesuffix(" UTC")
            meta = dict(doc["meta"], resolved={"guided": migrated_entry("guided", {}, when, name)})
            return {**doc, "meta": meta}

        yield REPO / name, add_bench


def distill_summaries() -> Iterator[tuple[Path, Callable[[dict], dict]]]:
    """``friday distill``'s summaries: each measurement's spec gets its resolved spec."""
    for path in tracked("*summary.json") + tracked("*start.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(doc, dict) or not any(
            isinstance(v, dict) and "spec" in v for v in doc.values()
        ):
            continue
        when = first_commit_time(path.relative_to(REPO).as_posix())
        rel = path.relative_to(REPO).as_posix()

        def add(doc: dict, when: str | None = when, rel: str = rel) -> dict:
            out = {}
            for key, value in doc.items():
                if isinstance(value, dict) and "spec" in value:
                    entry = migrated_entry(value["spec"], {}, when or "", rel)
                    value = _insert_after(value, "spec", "resolved", entry)
                out[key] = value
            return out

        yield path, add


def _insert_after(doc: dict, key: str, new: str, value: Any) -> dict:
    """``doc`` with ``new`` right after ``key`` (replaced where it is, if there)."""
    out = {}
    for name, item in doc.items():
        if name != new:
            out[name] = item
        if name == key:
            out[new] = value
    return out


def _style_of(text: str, doc: Any) -> dict[str, Any]:
    """The ``json.dumps`` options that wrote ``text`` (so a migrated file differs only by
    what is added)."""
    for style in ({"indent": 1}, {"indent": 2}, {"indent": 2, "ensure_ascii": False}):
        if json.dumps(doc, **style) + "\n" == text:
            return style
    raise SystemExit(f"migrate_results.py: {text[:40]!r}... does not read back as written")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--check", action="store_true", help="list the files, write nothing")
    args = parser.parse_args(argv)
    count = 0
    for path, add in [*evaluation_results(), *bench_results(), *distill_summaries()]:
        text = path.read_text(encoding="utf-8")
        doc = json.loads(text)
        style = _style_of(text, doc)
        new = json.dumps(add(doc), **style) + "\n"
        count += new != text
        if not args.check:
            path.write_text(new, encoding="utf-8")
        print(path.relative_to(REPO).as_posix())
    print(f"{count} files {'to migrate' if args.check else 'migrated'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
