"""``friday rl``'s ``checkpoint.pt``: everything a resumed run needs (the networks, the optimiser,
the generators' states, the counters, the curriculum, and the games in play as their deals and
actions), written whole and read back checked.

The file holds tensors and plain values only, so it loads with
``torch.load(weights_only=True)``: a checkpoint is never a way to run code. Every part is
checked against what this run would have written (names, types, shapes, dtypes, counts)
before any of it is used: a damaged or tampered file stops the resume with one line naming the
file and what is wrong (`CheckpointError`, exit status 2), and nothing in the run folder is
changed. The layout is the one the trainer has written since checkpoints held plain values only
(before the trainer was split into modules too): those files resume unchanged.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from friday_agents.harness.deals import is_training_deal
from friday_agents.harness.files import replace_atomically
from friday_agents.learning.networks import ActorCritic, hidden_sizes
from friday_agents.learning.rl.config import RLConfig, RLConfigError
from friday_agents.learning.rl.curriculum import ReverseCurriculum, Start, replay
from friday_agents.learning.rl.games import Episodes
from friday_agents.learning.rl.ppo import adam
from friday_agents.learning.rl.shaping import NUM_CELLS
from friday_env.actions import NUM_ACTIONS
from friday_env.observation import FLAT_SIZE

CHECKPOINT_FILE, POLICY_FILE = "checkpoint.pt", "policy.npz"
#: The counters of the run, each a plain number.
COUNTERS = ("frames", "updates", "cpu_seconds", "wall_seconds", "kl_coef", "start_win_rate")
#: What each process keeps of its own (a data-parallel run stores one of these per process).
PROCESS_KEYS = ("numpy_rng", "torch_rng", "curriculum", "episodes", "next_deals", "visits")
#: Hidden layers a checkpoint may name, and their largest width (a tampered size must not
#: make the loader allocate a network larger than the file could hold).
MAX_LAYERS, MAX_WIDTH = 16, 1 << 16


class CheckpointError(RLConfigError):
    """A checkpoint that cannot be resumed: unreadable, or a part missing or malformed."""


class _Malformed(ValueError):
    """What is wrong with a part of a checkpoint (`restore` adds the file's name)."""


def model_state(model: ActorCritic) -> dict[str, Any]:
    """What rebuilds ``model`` exactly: its hidden sizes and its parameters."""
    return {
        "actor_hidden": hidden_sizes(model.actor),
        "critic_hidden": hidden_sizes(model.critic),
        "parameters": {key: value.cpu() for key, value in model.state_dict().items()},
    }


def episodes_state(episodes: Episodes) -> dict[str, Any]:
    """The games in progress as plain lists (a start as its fields)."""
    return {
        "seeds": list(episodes.seeds),
        "actions": [list(actions) for actions in episodes.actions],
        "starts": [None if s is None else dataclasses.astuple(s) for s in episodes.starts],
        "finished": [tuple(f) for f in episodes.finished],
    }


def write_checkpoint(path: Path, state: dict[str, Any]) -> None:
    """``state`` in ``path``, written whole, then renamed: a killed run never leaves half a
    file."""
    replace_atomically(path, lambda temporary: torch.save(state, temporary))


def read_checkpoint(path: Path) -> dict[str, Any]:
    """The checkpoint in ``path`` as saved (tensors and plain values), not yet checked."""
    if not path.exists():
        raise CheckpointError(f"nothing to resume: {path} does not exist")
    if not path.is_file():
        raise CheckpointError(f"the checkpoint {path} is not a regular file")
    try:  # weights only: a checkpoint is never a way to run code
        state = torch.load(path, weights_only=True, map_location="cpu")
    except Exception:  # torch's advice (load it unsafely if trusted) is not ours to give
        raise CheckpointError(
            f"cannot read the checkpoint {path}: it is broken or holds more than tensors "
            "and plain values (a crafted file, or one written before checkpoints held plain "
            "values only); nothing in it that could run code is loaded"
        ) from None
    if not isinstance(state, dict):
        raise CheckpointError(f"the checkpoint {path} must hold a dictionary of the run's state")
    return state


@dataclass
class Restored:
    """What a checkpoint gives one process of a resumed run, every part checked."""

    model: ActorCritic
    reference: nn.Sequential  # the start policy's actor
    optimizer: torch.optim.Adam
    rng: np.random.Generator
    torch_rng: torch.Generator
    counters: dict[str, Any]  # `COUNTERS`
    curriculum: dict[str, Any] | None  # a curriculum's state_dict, checked
    episodes: Episodes
    next_deals: np.ndarray
    visits: np.ndarray


def restore(
    path: Path, config: RLConfig, device: torch.device, rank: int = 0, world: int = 1
) -> Restored:
    """Process ``rank``'s part of the checkpoint in ``path`` of a run with ``config``, the
    networks and the optimiser on ``device``; `CheckpointError` naming the file and what is
    wrong with it."""
    state = read_checkpoint(path)
    stored = state.get("world", 1)
    if stored != world:
        raise CheckpointError(
            f"{path} was written by a run of {stored} process(es): resume it with as many "
            f"(this is {world})"
        )
    try:
        return _restored(state, config, rank, device)
    except _Malformed as err:
        raise CheckpointError(f"the checkpoint {path} is damaged: {err}") from None


def _restored(state: dict[str, Any], config: RLConfig, rank: int, device: torch.device) -> Restored:
    if rank:
        ranks = state.get("ranks")
        if (
            not isinstance(ranks, list)
            or len(ranks) < rank
            or not isinstance(ranks[rank - 1], dict)
        ):
            raise _Malformed(f"ranks: no state of process {rank}")
        state = state | ranks[rank - 1]
    missing = [
        key
        for key in ("model", "reference", "optimizer", *COUNTERS, *PROCESS_KEYS)
        if key not in state
    ]
    if missing:
        raise _Malformed(f"it has no {', '.join(missing)}")
    model = _model(state["model"], "model").to(device)
    reference = _model(state["reference"], "reference").to(device).actor.requires_grad_(False)
    return Restored(
        model=model,
        reference=reference,
        optimizer=_optimizer(state["optimizer"], model, config.learning_rate),
        rng=_numpy_rng(state["numpy_rng"]),
        torch_rng=_torch_rng(state["torch_rng"]),
        counters={name: _counter(name, state[name]) for name in COUNTERS},
        curriculum=_curriculum(state["curriculum"], config),
        episodes=_episodes(state["episodes"], config.num_envs),
        next_deals=_next_deals(state["next_deals"], config.num_envs),
        visits=_visits(state["visits"]),
    )


# ------------------------------------------------------------------------------ networks


def _model(state: Any, name: str) -> ActorCritic:
    """The networks of a `model_state`, checked against the networks its sizes name."""
    if not isinstance(state, dict) or not isinstance(state.get("parameters"), dict):
        raise _Malformed(f"{name} must hold the hidden sizes and the parameters")
    hidden = [
        _hidden(state.get(f"{part}_hidden"), f"{name} {part}_hidden")
        for part in ("actor", "critic")
    ]
    parameters = state["parameters"]
    model = _sized_model(hidden[0], hidden[1], parameters, name)
    expected = model.state_dict()
    for key in sorted(set(expected) | set(parameters)):
        if key not in parameters:
            raise _Malformed(f"{name} has no parameter {key}")
        if key not in expected:
            raise _Malformed(f"{name} has a parameter {key} that its networks do not")
        _tensor(
            parameters[key], f"{name} parameter {key}", tuple(expected[key].shape), (torch.float32,)
        )
    model.load_state_dict(parameters)
    return model


def _hidden(sizes: Any, name: str) -> list[int]:
    if (
        not isinstance(sizes, list)
        or not 0 < len(sizes) <= MAX_LAYERS
        or not all(_whole(size) and 0 < size <= MAX_WIDTH for size in sizes)
    ):
        raise _Malformed(f"{name} must be a list of layer widths, got {sizes!r}")
    return sizes


def _sized_model(actor: list[int], critic: list[int], parameters: dict, name: str) -> ActorCritic:
    """Fresh networks of the sizes named, once the parameters given could fill them (sizes
    the file cannot back are refused before anything that large is allocated)."""
    layers = ([FLAT_SIZE, *actor, NUM_ACTIONS], [FLAT_SIZE, *critic, 1])
    needed = sum(a * b + b for sizes in layers for a, b in itertools.pairwise(sizes))
    held = sum(t.numel() for t in parameters.values() if isinstance(t, torch.Tensor))
    if needed > held + 1_000_000:
        raise _Malformed(f"{name}'s hidden sizes {actor} and {critic} do not fit its parameters")
    return ActorCritic.new(actor, critic)


def _optimizer(state: Any, model: ActorCritic, learning_rate: float) -> torch.optim.Adam:
    """The trainer's Adam over ``model`` with the stored state, which must be Adam's over
    exactly these parameters (a moment of another shape or dtype crashed the fused step)."""
    if not isinstance(state, dict) or not isinstance(state.get("state"), dict):
        raise _Malformed("optimizer must hold Adam's state and parameter groups")
    optimizer = adam(model, learning_rate)
    params = list(model.parameters())
    _param_group(state.get("param_groups"), optimizer.state_dict()["param_groups"][0], len(params))
    for index, moments in state["state"].items():
        if not _whole(index) or not 0 <= index < len(params) or not isinstance(moments, dict):
            raise _Malformed(f"optimizer state {index!r} is no parameter's")
        if set(moments) != {"step", "exp_avg", "exp_avg_sq"}:
            raise _Malformed(
                f"optimizer state of parameter {index} must hold step, exp_avg and exp_avg_sq"
            )
        step = _tensor(
            moments["step"], f"optimizer step of parameter {index}", (), (torch.float32,)
        )
        if not math.isfinite(float(step)) or float(step) < 0:
            raise _Malformed(
                f"optimizer step of parameter {index} must be a count, got {float(step)}"
            )
        for moment in ("exp_avg", "exp_avg_sq"):
            shape = tuple(params[index].shape)
            _tensor(
                moments[moment], f"optimizer {moment} of parameter {index}", shape, (torch.float32,)
            )
    optimizer.load_state_dict(state)
    for group in optimizer.param_groups:  # a checkpoint written before it was fused
        group["fused"], group["foreach"] = True, None
    return optimizer


def _param_group(groups: Any, fresh: dict[str, Any], count: int) -> None:
    """The stored parameter group: one, over the model's ``count`` parameters, each setting
    of the kind the trainer's Adam has (its switches as the trainer sets them)."""
    if not isinstance(groups, list) or len(groups) != 1 or not isinstance(groups[0], dict):
        raise _Malformed("optimizer must hold one parameter group")
    group = groups[0]
    if group.get("params") != list(range(count)):
        raise _Malformed(f"optimizer's parameter group must hold the model's {count} parameters")
    for key, value in group.items():
        want = fresh.get(key)
        if key in ("params", "fused", "foreach") or key not in fresh:
            continue
        if isinstance(want, bool) and value is not want:
            raise _Malformed(f"optimizer setting {key} must be {want}, got {value!r}")
        if _number(want) and not (_number(value) and math.isfinite(value) and value >= 0):
            raise _Malformed(f"optimizer setting {key} must be a number >= 0, got {value!r}")
        if isinstance(want, tuple) and not (
            isinstance(value, (list, tuple))
            and len(value) == len(want)
            and all(_number(v) and 0 <= v < 1 for v in value)
        ):
            raise _Malformed(
                f"optimizer setting {key} must be {len(want)} numbers in [0, 1), got {value!r}"
            )


# ------------------------------------------------------------------------------ the rest


_DEALS = (torch.int64, torch.uint64)


def _numpy_rng(text: Any) -> np.random.Generator:
    """numpy's generator state, kept as JSON text (its 128-bit integers exactly)."""
    rng = np.random.default_rng()
    try:
        rng.bit_generator.state = json.loads(text)
    except (TypeError, ValueError, KeyError, RecursionError) as err:
        raise _Malformed(f"numpy_rng is no state of numpy's generator ({err})") from None
    return rng


def _torch_rng(state: Any) -> torch.Generator:
    generator = torch.Generator()
    size = tuple(generator.get_state().shape)
    generator.set_state(_tensor(state, "torch_rng", size, (torch.uint8,)))
    return generator


def _counter(name: str, value: Any) -> Any:
    """A counter as stored: counts whole and >= 0, seconds and the KL weight >= 0, the start's
    win rate None or a rate."""
    if name in ("frames", "updates"):
        ok = _whole(value) and value >= 0
    elif name == "start_win_rate":
        ok = value is None or (_number(value) and 0 <= value <= 1)
    else:
        ok = _number(value) and math.isfinite(value) and value >= 0
    if not ok:
        raise _Malformed(f"{name} cannot be {value!r}")
    return value


def _curriculum(state: Any, config: RLConfig) -> dict[str, Any] | None:
    """A curriculum's state (None without ``--method reverse``): loaded into a scratch one,
    every archived game replayed (an episode starts from one of them later in the run)."""
    if config.method != "reverse":
        if state is not None:
            raise _Malformed(f"curriculum is stored, but the run's method is {config.method}")
        return None
    keys = ("k", "archive", "outcomes", "games_seen", "starts")
    if not isinstance(state, dict) or any(key not in state for key in keys):
        raise _Malformed(f"curriculum must hold {', '.join(keys)} (the run's method is reverse)")
    scratch = ReverseCurriculum(0.5, 1, 1, 0.5, 1, 1)
    try:
        for row in state["archive"]:
            _archived_game(row, config.level)
        scratch.load_state_dict(state)
    except (TypeError, ValueError, KeyError, IndexError) as err:
        raise _Malformed(f"curriculum: {err}") from None
    return state


def _archived_game(row: Any, level: int) -> None:
    """An archived game's fields, its deal a training deal whose game takes its actions."""
    won, score, order, seed, actions = row
    if not (isinstance(won, bool) and _whole(score) and _whole(order) and _whole(seed)):
        raise ValueError(f"an archived game is not (won, score, order, deal, actions): {row[:4]!r}")
    if not isinstance(actions, bytes) or not is_training_deal(seed):
        raise ValueError(f"the archived game of deal {seed} is not a training deal's actions")
    replay(level, seed, list(actions), core=None)  # FridayError (a ValueError) if illegal


def _episodes(state: Any, num_envs: int) -> Episodes:
    """The games in play, one per env, each on a training deal."""
    try:
        seeds, actions, starts = (list(state[key]) for key in ("seeds", "actions", "starts"))
        finished = [(bool(won), int(score)) for won, score in state["finished"]]
    except (TypeError, ValueError, KeyError) as err:
        raise _Malformed(f"episodes: {err}") from None
    if not len(seeds) == len(actions) == len(starts) == num_envs:
        raise _Malformed(f"episodes must hold {num_envs} games (one per env)")
    if not all(_whole(seed) and is_training_deal(seed) for seed in seeds):
        raise _Malformed("episodes: a game is not on a training deal")
    if not all(
        isinstance(a, list) and all(_whole(x) and 0 <= x < NUM_ACTIONS for x in a) for a in actions
    ):
        raise _Malformed("episodes: a game's actions are not action ids")
    if not all(start is None or _start(start) for start in starts):
        raise _Malformed("episodes: a start is not (deal, actions, won, score)")
    starts = [None if s is None else Start(s[0], tuple(s[1]), s[2], s[3]) for s in starts]
    return Episodes(seeds, actions, starts, finished)


def _start(fields: Any) -> bool:
    """Whether ``fields`` are a `Start`'s: a training deal, action ids, won, score."""
    if not isinstance(fields, (list, tuple)) or len(fields) != 4:
        return False
    seed, prefix, won, score = fields
    return (
        _whole(seed)
        and is_training_deal(seed)
        and isinstance(prefix, (list, tuple))
        and all(_whole(x) and 0 <= x < NUM_ACTIONS for x in prefix)
        and isinstance(won, bool)
        and _whole(score)
    )


def _next_deals(state: Any, num_envs: int) -> np.ndarray:
    """Each env's next deal, a training deal."""
    deals = _tensor(state, "next_deals", (num_envs,), _DEALS).numpy()
    if not all(is_training_deal(int(seed)) for seed in deals):
        raise _Malformed("next_deals: a deal is not a training deal")
    return deals


def _visits(state: Any) -> np.ndarray:
    visits = _tensor(state, "visits", (NUM_CELLS,), (torch.int64,)).numpy()
    if (visits < 0).any():
        raise _Malformed("visits cannot be negative")
    return visits


def _tensor(
    value: Any, name: str, shape: tuple[int, ...], dtypes: tuple[torch.dtype, ...]
) -> torch.Tensor:
    """``value`` if it is a tensor of ``shape`` and one of ``dtypes``."""
    if not isinstance(value, torch.Tensor):
        raise _Malformed(f"{name} must be a tensor, got {type(value).__name__}")
    if tuple(value.shape) != shape or value.dtype not in dtypes:
        raise _Malformed(
            f"{name} is {value.dtype} of shape {tuple(value.shape)}, expected "
            f"{dtypes[0]} of shape {shape}"
        )
    return value


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
