"""Agents by name: one line per agent, loaded lazily so ``friday play`` never imports torch.

An agent is named on the command line by a *spec*: its name, optionally followed by
``:key=value`` options passed to its constructor, e.g. ``search:sims=200`` or
``ppo:model=runs/ppo.zip``. Each value is read as the type the constructor annotates
(``inspect.signature(cls, eval_str=True)``): ``int``, ``float``, ``str``, and for ``bool`` exactly
true/false, yes/no, on/off or 1/0; a value that is not of its type is an error naming the
option. An option without annotation takes a number if the text reads as one. Only options
of plain types (numbers, text, booleans) can be set from a spec; the others are for Python
callers and are not listed.

To add an agent, add one line to `AGENTS` (``"name": "module:Class"``); the class takes
its options as keyword arguments and follows
[`friday_agents.players.base.Agent`][friday_agents.players.base.Agent].
"""

from __future__ import annotations

import importlib
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.values import parse_bool
from friday_agents.players.base import Agent

#: name -> "module:Class". The class is imported only when the agent is made.
AGENTS: dict[str, str] = {
    "random": "friday_agents.players.random_agent:RandomAgent",
    "heuristic": "friday_agents.players.heuristic.agent:HeuristicAgent",
    "search": "friday_agents.players.search.agent:SearchAgent",
    "guided": "friday_agents.players.search.guided:GuidedSearchAgent",
    "ppo": "friday_agents.players.ppo.agent:PPOAgent",
    "net": "friday_agents.players.net.agent:NetAgent",
    "scratch": "friday_agents.players.net.agent:ScratchAgent",
    "scratch-search": "friday_agents.players.search.scratch:ScratchSearchAgent",
    "scratch-distilled": "friday_agents.players.net.agent:ScratchDistilledAgent",
    "oracle": "friday_agents.players.search.oracle:OracleSearchAgent",
}
#: Agents that read hidden information on purpose (upper bounds, not players): reports list
#: them apart and never rank them against the fair agents.
CHEATING_AGENTS: frozenset[str] = frozenset({"oracle"})


class AgentSpecError(BadInputError, ValueError):
    """An agent spec naming an unknown agent or an option the agent does not take."""


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:key=value:..."`` into the name and its options, numbers read as numbers
    (before the agent's class is known; `make_agent` reads each by its annotated type)."""
    name, options = _split(spec)
    return name, {key: _number_or_text(value) for key, value in options.items()}


def _split(spec: str) -> tuple[str, dict[str, str]]:
    """The agent's name and its options' texts."""
    name, *parts = spec.strip().split(":")
    if name not in AGENTS:
        known = ", ".join(AGENTS)
        raise AgentSpecError(f"unknown agent {name!r}; known agents: {known}")
    options: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key:
            raise AgentSpecError(f"agent option {part!r} in {spec!r} is not of the form key=value")
        options[key] = value
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
    cls, merged = _constructor_options(spec, defaults)
    try:
        return cls(**merged)
    except (TypeError, ValueError) as err:
        raise AgentSpecError(f"agent spec {spec!r}: {err}") from None


def resolved_options(spec: str, **defaults: Any) -> tuple[str, dict[str, Any]]:
    """The agent's name and every option its constructor takes, with the value `make_agent`
    would build it with (the spec's, else ``defaults``', else the constructor's own), without
    building it: what a spec means today, for a results file to store beside it."""
    cls, merged = _constructor_options(spec, defaults)
    options = {
        key: merged.get(key, parameter.default)
        for key, parameter in inspect.signature(cls).parameters.items()
        if parameter.kind is parameter.POSITIONAL_OR_KEYWORD
    }
    return spec.strip().split(":", 1)[0], options  # the name the registry knows it by


def _constructor_options(spec: str, defaults: dict[str, Any]) -> tuple[type, dict[str, Any]]:
    """The class a spec names and the keyword options it is built with."""
    name, texts = _split(spec)
    cls = agent_class(name)
    accepted = inspect.signature(cls).parameters
    settable = spec_options(cls)
    unknown = [key for key in texts if key not in settable]
    if unknown:
        known = ", ".join(settable) or "none"
        raise AgentSpecError(
            f"agent {name!r} takes no option {', '.join(map(repr, unknown))}; its options: {known}"
        )
    options = {key: _typed(spec, key, text, settable[key]) for key, text in texts.items()}
    merged = {k: v for k, v in defaults.items() if k in accepted}
    merged.update(options)
    return cls, merged


#: The types a spec's text can give an option (``None`` only as the default of an option).
_PLAIN_TYPES = frozenset({int, float, str, bool, type(None)})


def spec_options(cls: type) -> dict[str, tuple[type, ...]]:
    """The constructor options of ``cls`` a spec can set, each with its types: those annotated
    with plain types only (``int``, ``float``, ``str``, ``bool``, optionally ``| None``), and
    those without annotation (no types: a number or text)."""
    options = {}
    for key, parameter in inspect.signature(cls, eval_str=True).parameters.items():
        annotated = parameter.annotation is not parameter.empty
        kinds = _types_of(parameter.annotation) if annotated else ()
        if set(kinds) <= _PLAIN_TYPES and parameter.kind is parameter.POSITIONAL_OR_KEYWORD:
            options[key] = kinds
    return options


def _types_of(hint: Any) -> tuple[type, ...]:
    """The types a hint allows (``int | None`` -> ``(int, NoneType)``)."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return typing.get_args(hint)
    return (hint,)


def _typed(spec: str, key: str, text: str, kinds: tuple[type, ...]) -> Any:
    """``text`` read as the option's type: bool before int (``1`` is true), then int, float,
    and str last; an error naming the option if none reads it."""
    if not kinds:  # no annotation: a number if the text reads as one
        return _number_or_text(text)
    readers: list[tuple[type, Callable[[str], Any]]] = [
        (bool, parse_bool),
        (int, int),
        (float, float),
        (str, str),
    ]
    for kind, read in readers:
        if kind in kinds:
            try:
                return read(text)
            except ValueError:
                continue
    wanted = " or ".join(k.__name__ for k in kinds if k is not type(None))
    if bool in kinds:
        wanted = "true or false (true/false, yes/no, on/off, 1/0)"
    raise AgentSpecError(f"agent spec {spec!r}: option {key!r} is {wanted}, not {text!r}")
