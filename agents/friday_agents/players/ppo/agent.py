"""A MaskablePPO policy as a Friday agent: loads a checkpoint and plays any game.

``friday eval --agents ppo`` plays each level with the committed learned policy: the level's
own ``agents/friday_agents/models/ppo_level<L>.zip`` if there is one, else the policy shared by all
levels, ``agents/friday_agents/models/ppo_all_levels.zip`` (made by ``experiments/imitation/``; the
level is part of the observation). ``ppo:model=path/to/policy.zip`` plays every level with one
checkpoint instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from friday_agents.harness.errors import BadInputError
from friday_agents.models import MODELS_DIR, PPO_ALL_LEVELS, check_not_moved
from friday_env import Game
from friday_env.observation import action_mask, make_encoder
from friday_env.regular_file import why_not_a_file

#: Where the committed default checkpoints live ([`friday_agents.models`][friday_agents.models]).
CHECKPOINT_DIR = MODELS_DIR


class PPOCheckpointError(BadInputError):
    """A PPO checkpoint that is missing or cannot be loaded."""


#: The committed policy that plays every level without a checkpoint of its own.
SHARED_CHECKPOINT = PPO_ALL_LEVELS


def default_checkpoint(level: int) -> Path:
    """The committed policy of ``level``: its own if committed, else the shared one."""
    own = CHECKPOINT_DIR / f"ppo_level{level}.zip"
    return own if own.is_file() or not SHARED_CHECKPOINT.is_file() else SHARED_CHECKPOINT


class PPOAgent:
    """Plays the masked policy of a MaskablePPO checkpoint.

    ## Description

    Each decision encodes the game with the encoder the checkpoint records
    (`friday_agents.players.ppo.checkpoint.encoder_of`), lets the policy mask the illegal
    actions (sb3-contrib's ``get_distribution(obs, action_masks)``) and takes the most
    probable action (or samples one with the agent's own generator when
    ``deterministic=false``). It reads only what the encoders read, the public information (R26).

    ## Arguments

    - ``model``: path of a checkpoint (``policy.zip`` or any ``friday train`` checkpoint)
      used for every level; default: the committed checkpoint of each game's level.
    - ``deterministic``: true (default) takes the most probable legal action, false samples
      (a spec takes true/false, yes/no, on/off or 1/0).

    A missing or unreadable checkpoint raises
    [`PPOCheckpointError`][friday_agents.players.ppo.agent.PPOCheckpointError]: at construction for
    ``model``, at the first game of a level for the defaults.
    """

    name = "ppo"

    def __init__(self, model: str | None = None, deterministic: bool = True) -> None:
        self.model_path = Path(model) if model else None
        self.deterministic = bool(deterministic)
        self.rng = np.random.default_rng(0)
        self._models: dict[Path, tuple[Any, Any]] = {}
        if self.model_path is not None:
            self._load(self.model_path)

    def prepare(self, level: int) -> None:
        """Load the model games of ``level`` play (see `Agent`), before any is timed."""
        self._load(self.model_path or default_checkpoint(level))

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, game: Game) -> int:
        import torch

        policy, encoder = self._load(self.model_path or default_checkpoint(game.level))
        obs, _ = policy.obs_to_tensor(encoder.encode(game))
        with torch.no_grad():
            distribution = policy.get_distribution(obs, action_masks=action_mask(game))
            if self.deterministic:
                return int(distribution.get_actions(deterministic=True)[0])
            probs = distribution.distribution.probs[0].numpy().astype(np.float64)
        return int(self.rng.choice(len(probs), p=probs / probs.sum()))

    def _load(self, path: Path) -> tuple[Any, Any]:
        if path not in self._models:
            import torch

            from friday_agents.players.ppo.checkpoint import CheckpointError, encoder_of, load_model

            torch.set_num_threads(1)  # one game per core: evaluation runs a process per core

            try:
                check_not_moved(path)
            except ValueError as err:
                raise PPOCheckpointError(str(err)) from None
            problem = why_not_a_file(path)
            if problem is not None:
                advice = " (train one with `friday train`, or pass ppo:model=PATH)"
                raise PPOCheckpointError(
                    f"PPO checkpoint {str(path)!r} {problem}"
                    + (advice if problem == "does not exist" else "")
                )
            try:
                model = load_model(path)
                encoder = make_encoder(encoder_of(model, path))
            except CheckpointError as err:
                raise PPOCheckpointError(str(err)) from None
            if model.observation_space != encoder.space:
                raise PPOCheckpointError(
                    f"PPO checkpoint {str(path)!r} was trained on another observation layout "
                    f"than the current {encoder.name!r} encoder: retrain it"
                )
            model.policy.set_training_mode(False)
            self._models[path] = (model.policy, encoder)
        return self._models[path]
