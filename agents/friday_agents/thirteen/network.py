"""The self-play policy as numpy arrays: a two-layer tanh MLP over
``friday_env.thirteen.encode``'s observation with a policy head (150 logits, illegal ones
masked) and a value head. ``friday thirteen train`` writes it as ``.npz``; playing it needs
numpy only."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from friday_agents.harness.errors import BadInputError
from friday_agents.harness.files import write_npz_atomically
from friday_env.thirteen.cards import NUM_ACTIONS
from friday_env.thirteen.encode import OBSERVATION_SIZE, encode
from friday_env.thirteen.game import Game13

#: The arrays a model file holds, in forward order.
KEYS = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


class PolicyNet:
    """Forward pass of the trained network (weights as the trainer's torch layers hold them,
    transposed to ``x @ w``)."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        missing = [key for key in KEYS if key not in arrays]
        if missing:
            raise BadInputError(f"the model lacks array {missing[0]!r}")
        self.w = {key: np.asarray(arrays[key], dtype=np.float32) for key in KEYS}
        if self.w["w1"].shape[0] != OBSERVATION_SIZE or self.w["wp"].shape[1] != NUM_ACTIONS:
            raise BadInputError(
                f"the model expects {self.w['w1'].shape[0]} inputs and {self.w['wp'].shape[1]} "
                f"actions, not {OBSERVATION_SIZE} and {NUM_ACTIONS}"
            )

    @classmethod
    def load(cls, path: Path) -> PolicyNet:
        if not path.is_file():
            raise BadInputError(f"no model file {path} (train one with friday thirteen train)")
        try:
            with np.load(path, allow_pickle=False) as data:
                return cls({key: data[key] for key in data.files})
        except (OSError, ValueError) as err:
            raise BadInputError(f"{path} is not a model file: {err}") from None

    def save(self, path: Path) -> None:
        """The arrays in ``path`` (``.npz``), whole or not at all: a kill mid-write keeps
        the file before it (a run's best.npz and last.npz are rewritten as it trains)."""
        write_npz_atomically(path, self.w)

    def forward(self, observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Logits ``(n, 150)`` and values ``(n,)`` of a batch of observations."""
        w = self.w
        hidden = np.tanh(observations @ w["w1"] + w["b1"])
        hidden = np.tanh(hidden @ w["w2"] + w["b2"])
        return hidden @ w["wp"] + w["bp"], (hidden @ w["wv"] + w["bv"])[:, 0]

    def act(self, game: Game13, rng: np.random.Generator | None = None) -> int:
        """The most probable legal action for ``game.current_player`` (or one drawn from the
        policy with ``rng``)."""
        logits, _ = self.forward(encode(game, game.current_player)[None, :])
        legal = np.asarray(game.legal_actions())
        scores = logits[0, legal]
        if rng is None:
            return int(legal[int(np.argmax(scores))])
        probabilities = np.exp(scores - scores.max())
        probabilities /= probabilities.sum()
        return int(legal[int(rng.choice(legal.size, p=probabilities))])
