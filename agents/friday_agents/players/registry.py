"""Agents by name: one line per agent, loaded lazily so ``friday play`` never imports torch.

An agent is named on the command line by a *spec*: its name, optionally followed by
``:key=value`` options passed to its constructor, e.g. ``search:sims=200`` or
``ppo:model=runs/ppo.zip``. Values that read as integers or floats become numbers; an option
the constructor annotates ``bool`` takes exactly true/false, yes/no, on/off or 1/0 (anything
else is an error naming the option). Only options of plain types (numbers, text, booleans)
can be set from a spec; the others are for Python callers and are not listed.

To add an agent, add one line to `AGENTS` (``"name": "module:Class"``); the class takes
its options as keyword arguments and follows
[`friday_agents.players.base.Agent`][friday_agents.players.base.Agent].
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import re
from typing import Any

from friday_agents.cli.arguments import parse_bool
from friday_agents.players.base import Agent

#: name -> "module:Class". The class is imported only when the agent is made.
AGENTS: dict[str, str] = {
    "random": "friday_agents.players.random_agent:RandomAgent",
    "heuristic": "friday_agents.players.heuristic.agent:HeuristicAgent",
    "search": "friday_agents.players.search.agent:SearchAgent",
    "guided": "friday_agents.players.search.guided:GuidedSearchAgent",
    "ppo": "friday_agents.players.ppo.agent:PPOAgent",
    "net": "friday_agents.players.net.agent:NetAgent",
    "oracle": "friday_agents.players.search.oracle:OracleSearchAgent",
}
#: Agents that read hidden information on purpose (upper bounds, not players): reports list
#: them apart and never rank them against the fair agents.
CHEATING_AGENTS: frozenset[str] = frozenset({"oracle"})


class AgentSpecError(ValueError):
    """An agent spec naming an unknown agent or an option the agent does not take."""


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:..."`` into the name and its options (numbers converted)."""
    name, *parts = spec.strip().split(":")
    if name not in AGENTS:
        known = ", ".join(AGENTS)
        raise AgentSpecError(f"unknown agent {name!r}; known agents: {known}")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise AgentSpecError(f"agent option {part!r} in {spec!r} is not of the form key=value")
        options[key] = _number_or_text(value)
    return name, options


def _number_or_text(value: str) -> Any:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def is_cheating(spec: str) -> bool:
    """Whether the agent a spec names reads hidden information (see `CHEATING_AGENTS`)."""
    return parse_spec(spec)[0] in CHEATING_AGENTS


def agent_class(name: str) -> type:
    """The class registered under ``name``."""
    if name not in AGENTS:
        raise AgentSpecError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)}")
    module, _, cls = AGENTS[name].partition(":")
    return getattr(importlib.import_module(module), cls)


def make_agent(spec: str, **defaults: Any) -> Agent:
    """Build the agent a spec names. ``defaults`` are options used unless the spec sets
    them; those the agent's constructor does not take are ignored (so one set of command-line
    defaults such as ``sims`` can serve every agent). Options written in the spec itself must
    be options a spec can set (`spec_options`)."""
    name, options = parse_spec(spec)
    cls = agent_class(name)
    accepted = inspect.signature(cls).parameters
    settable = spec_options(cls)
    unknown = [key for key in options if key not in settable]
    if unknown:
        known = ", ".join(settable) or "none"
        raise AgentSpecError(
            f"agent {name!r} takes no option {', '.join(map(repr, unknown))}; its options: {known}"
        )
    for key, value in options.items():
        if _annotation(settable[key]) == "bool":
            options[key] = _spec_bool(spec, key, value)
    merged = {k: v for k, v in defaults.items() if k in accepted}
    merged.update(options)
    try:
        return cls(**merged)
    except (TypeError, ValueError) as err:
        raise AgentSpecError(f"agent spec {spec!r}: {err}") from None


#: The types a spec's text can give an option.
_PLAIN_TYPES = frozenset({"int", "float", "str", "bool", "None"})


def spec_options(cls: type) -> dict[str, inspect.Parameter]:
    """The constructor options of ``cls`` a spec can set: those annotated with plain types
    only (``int``, ``float``, ``str``, ``bool``, optionally ``| None``)."""
    return {
        key: parameter
        for key, parameter in inspect.signature(cls).parameters.items()
        if set(re.findall(r"\w+", _annotation(parameter))) <= _PLAIN_TYPES
        and parameter.kind is parameter.POSITIONAL_OR_KEYWORD
    }


def _annotation(parameter: inspect.Parameter) -> str:
    """The parameter's annotation as written (``"int | None"``; ``"str"`` if it has none)."""
    annotation = parameter.annotation
    if annotation is parameter.empty:
        return "str"
    return annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")


def _spec_bool(spec: str, key: str, value: Any) -> bool:
    try:
        return parse_bool(str(value))
    except argparse.ArgumentTypeError:
        raise AgentSpecError(
            f"agent spec {spec!r}: option {key!r} is true or false (true/false, yes/no, on/off, "
            f"1/0), not {value!r}"
        ) from None
