"""What an agent spec plays, written out whole: every option and every model file by its hash.

A spec says only what its writer changed (``guided``, ``guided:top=1``); what the rest means
is the code of the day, and defaults change when a study adopts a better one. So every
results file stores, beside each spec as typed, its **resolved spec** (`resolve_spec`):

```json
{"spec": "guided", "agent": "guided", "defaults": {"sims": 32},
 "options": {"sims": 32, "value": "guided-value-leaf", "horizon": 1, "prior": "net-v1", ...},
 "models": [{"option": "value", "role": "guided-value-leaf", "path": "...", "sha256": "..."},
            {"option": "value/level4", "role": "guided-leaf-level4", ...}, ...]}
```

``options`` holds every constructor option with the value the agent was built with (the
spec's, else the command's defaults, else the constructor's own); ``models`` every model file
it loads, named by its role in [`friday_agents.models`][friday_agents.models] (None for a file
of one's own), its path relative to the working directory, and its SHA-256. A per-level value
file lists the file of each level too (``value/level4``).

`played_spec` reads a stored entry back as a spec today's code plays the same way: the spec as
typed, with each option whose stored value differs from today's meaning of that spec set to the
stored value (model options first). A table renders that, so a result measured before a
default changed keeps naming what played.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from friday_agents.harness.paths import portable_path as relative_path
from friday_agents.models import MODELS_DIR, ROLES, model_file
from friday_agents.players.registry import agent_class, resolved_options
from friday_env.json_text import JsonTextError, read_json

#: The options that name a model file, in the order a played spec shows them.
MODEL_OPTIONS = ("prior", "value", "rollout", "model")
#: The file an agent loads when a model option is left empty (``""`` or None), by agent.
_EMPTY_MEANS = {
    ("search", "value"): "search-value",
    ("oracle", "value"): "search-value",
    ("net", "model"): "net",
    ("ppo", "model"): "ppo-all-levels",
}
#: The format of a file of one value model per level (`players.search.value_levels`).
_PER_LEVEL = "friday-env/value-per-level"


def resolve_spec(spec: str, **defaults: Any) -> dict[str, Any]:
    """The resolved spec of ``spec`` built with ``defaults`` (see the module docstring)."""
    name, options = resolved_options(spec, **defaults)
    # the no-teacher agents' models are their own, not options: the class names them by role
    fixed = getattr(agent_class(name), "fixed_models", None)
    models = fixed_model_entries(fixed) if fixed else model_entries(name, options)
    return {
        "spec": spec,
        "agent": name,
        "defaults": {key: _plain(value) for key, value in defaults.items() if key in options},
        "options": {key: _plain(value) for key, value in options.items()},
        "models": models,
    }


def fixed_model_entries(fixed: dict[str, str]) -> list[dict[str, Any]]:
    """The entries of the models an agent names itself (option -> role), as `model_entries`'."""
    return _entries({option: ROLES[role] for option, role in fixed.items()})


def resolve_specs(specs: list[str] | tuple[str, ...], **defaults: Any) -> dict[str, dict]:
    """Spec -> its resolved spec, for a results file's ``resolved``."""
    return {spec: resolve_spec(spec, **defaults) for spec in specs}


def model_entries(agent: str, options: dict[str, Any]) -> list[dict[str, Any]]:
    """Every model file the options make ``agent`` load, each by option, role, path, hash."""
    paths = {o: _model_path(agent, o, options[o]) for o in MODEL_OPTIONS if o in options}
    return _entries(paths)


def _entries(paths: dict[str, Path | None]) -> list[dict[str, Any]]:
    """Option -> the file it loads (None: none): each file's entry, and a per-level value
    file's one per level (``value/level4``)."""
    entries = []
    for option, path in paths.items():
        if path is None:
            continue
        entries.append(_entry(option, path))
        entries += [_entry(f"{option}/level{lv}", file) for lv, file in _per_level_files(path)]
    return entries


def _model_path(agent: str, option: str, value: Any) -> Path | None:
    if value in ("", None):
        role = _EMPTY_MEANS.get((agent, option))
        return ROLES[role] if role else None
    if agent == "ppo":  # a checkpoint of one's own, by its path
        return Path(str(value))
    return model_file(str(value), option)


def _per_level_files(path: Path) -> list[tuple[str, Path]]:
    """The file of each level a per-level value file names (beside it), else nothing."""
    if path.suffix != ".json" or not path.is_file():
        return []
    try:
        data = read_json(path)
    except JsonTextError:  # not a per-level file: the agent that loaded it said what it is
        return []
    if not isinstance(data, dict) or data.get("format") != _PER_LEVEL:
        return []
    return [(level, path.parent / name) for level, name in sorted(data["levels"].items())]


def _entry(option: str, path: Path) -> dict[str, Any]:
    return {
        "option": option,
        "role": role_of(path),
        "path": portable_path(path),
        "sha256": file_sha256(path) if path.is_file() else None,
    }


def role_of(path: Path) -> str | None:
    """The role of a file of the models folder, else None (a file of one's own)."""
    if path.resolve().parent != MODELS_DIR:
        return None
    return next((role for role, file in ROLES.items() if file.name == path.name), None)


def portable_path(path: Path | str) -> str:
    """``path`` as a results file stores it (`friday_agents.harness.paths.portable_path`),
    a file of the installed package named from the package (``friday_agents/models/net.npz``)
    when the working directory does not hold it."""
    resolved = Path(path).resolve()
    package = MODELS_DIR.parents[1]  # the folder that holds friday_agents
    outside = Path(path).is_absolute() and not resolved.is_relative_to(Path.cwd().resolve())
    if outside and resolved.is_relative_to(package):
        return resolved.relative_to(package).as_posix()
    return relative_path(path)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _plain(value: Any) -> Any:
    """A JSON value: numbers, text, booleans and None as they are, anything else as text."""
    return value if value is None or isinstance(value, (bool, int, float, str)) else repr(value)


def played_spec(entry: dict[str, Any]) -> str:
    """A spec that plays today as the stored resolved spec ``entry`` played: its spec as
    typed, each option whose stored value differs from what that spec means today set to the
    stored value (an option typed in place, the others after it: model options first, then
    the rest in the constructor's order)."""
    spec = entry["spec"]
    stored = entry["options"]
    _, today = resolved_options(spec, **entry.get("defaults", {}))
    changed = {key: value for key, value in stored.items() if key in today and today[key] != value}
    if not changed:
        return spec
    name, *typed = spec.split(":")
    options = []
    for option in typed:
        key = option.partition("=")[0]
        options.append(f"{key}={_text(changed.pop(key))}" if key in changed else option)
    models = [key for key in MODEL_OPTIONS if key in changed]
    order = models + [key for key in changed if key not in MODEL_OPTIONS]
    options += [f"{key}={_text(changed[key])}" for key in order]
    return ":".join([name, *options])


def _text(value: Any) -> str:
    """An option's value as a spec writes it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def played_specs(results: dict[str, Any]) -> dict[str, str]:
    """Spec as typed -> the spec that played (`played_spec`), for every agent of a results
    file; a spec the file resolves nothing for is an error naming it."""
    resolved = results.get("resolved")
    if not isinstance(resolved, dict):
        raise ValueError("the results file stores no resolved specs ('resolved')")
    return {spec: played_spec(entry) for spec, entry in resolved.items()}
