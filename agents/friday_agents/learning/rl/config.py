"""``friday rl``'s configuration: one dataclass whose fields are the command's flags.

Validated before anything is built
([`RLConfig.validate`][friday_agents.learning.rl.config.RLConfig.validate]), saved beside the run as
``config.json``; ``--resume`` reads it back, so a resumed run trains with the configuration it
started with (only ``--frames`` may grow). No torch here: ``friday --help`` stays fast.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from friday_agents.harness.device import DEVICES
from friday_agents.harness.errors import BadInputError
from friday_agents.learning.config import LearningConfig, parse_hidden, setting, shared
from friday_env.episode import DEFAULT_PROGRESS_COEF

METHODS = ("ppo", "reverse")
#: The env's reward modes (``friday_env.episode.REWARD_MODES``): the run trains on the env's own.
REWARDS = ("win_loss", "score", "progress")
SHAPINGS = ("none", "fights")
BONUSES = ("none", "counts")


#: The settings that name one of a few choices, and those choices.
CHOICES = {
    "method": METHODS,
    "shaping": SHAPINGS,
    "bonus": BONUSES,
    "reward": REWARDS,
    "device": DEVICES,
}


class RLConfigError(BadInputError):
    """A ``friday rl`` option that is out of range, unknown or inconsistent."""


@dataclass
class RLConfig(LearningConfig):
    """Everything a ``friday rl`` run needs (each field is the flag of the same name)."""

    Error = RLConfigError

    out: str = shared("out", "", "config.json, checkpoint.pt, curve.jsonl, policy.npz")
    level: int = shared("level", 1)
    levels: str = setting(
        "train one policy on several levels at once, e.g. 1,2,3,4: the envs are split "
        "equally among them in that order (--num-envs must be a multiple of their number) "
        "and the held-out curve measures each; --level, if given, must be one of them (the "
        "curve's first; default: the first named); empty: --level alone",
        "",
    )
    frames: int = shared("frames", 1_000_000, "the critic's warm-up included")
    method: str = setting(
        "ppo (plain) or reverse (episodes started late in the agent's own best games)", "ppo"
    )
    init: str = shared("init", "", "a PolicyNetwork .npz")
    init_temperature: str = setting(
        "with --init: divide the start policy's logits by this before training (its greedy "
        "play is unchanged, its sampled play sharper); auto: the largest of 1, 0.5, 0.2, "
        "0.1, 0.05, 0.02 whose sampled win rate on training deals is within 90 %% of the best",
        "auto",
    )
    reward: str = shared(
        "reward",
        "",
        "win_loss (+1/-1), score (final score / 100) or progress (+1/-1 plus "
        "--progress-coef for each hazard and pirate beaten, kept: the env's "
        "reward='progress'); empty: win_loss with --init, score without",
    )
    progress_coef: float = shared("progress_coef", DEFAULT_PROGRESS_COEF)
    progress_coef_final: float = setting(
        "--reward progress: anneal the coefficient, falling linearly from --progress-coef "
        "to this over --progress-anneal-frames frames, then staying there (each update's "
        "coefficient is in the curve); -1: --progress-coef, no annealing",
        -1.0,
    )
    progress_anneal_frames: int = setting(
        "--progress-coef-final: the frames over which the coefficient falls (0: the run's "
        "--frames as it starts; kept in config.json, so a resumed run that asks for more "
        "frames keeps its schedule)",
        0,
    )
    shaping: str = shared(
        "shaping",
        "none",
        "none, or fights (a bonus of --shaping-coef / 50 for each fight finished, all taken "
        "back when the game ends, so every game's shaped return is its plain return: the "
        "best policy is unchanged)",
    )
    shaping_coef: float = shared("shaping_coef", 1.0, "--shaping fights: 50 finished fights")
    bonus: str = setting(
        "an exploration bonus added to the reward: none, or counts (each finished fight pays "
        "--bonus-coef / sqrt(n), n the visits so far, this one included, of the cell (fights "
        "finished, step, pirates beaten) it leads to: rarely reached parts of the game pay, "
        "common ones stop paying)",
        "none",
    )
    bonus_coef: float = setting("--bonus counts: the bonus of a cell's first visit", 0.05)
    seed: int = shared("seed", 1)
    num_envs: int = shared("num_envs", 64, "per process")
    num_steps: int = shared("num_steps", 128)
    hidden: str = shared("hidden", "256,256", "ignored with --init")
    learning_rate: float = shared("learning_rate", 2.5e-4)
    gamma: float = shared("gamma", 1.0)
    gae_lambda: float = shared("gae_lambda", 0.95)
    minibatches: int = shared("minibatches", 4)
    epochs: int = shared("epochs", 4)
    clip: float = shared("clip", 0.2)
    ent_coef: float = shared("ent_coef", 0.01)
    vf_coef: float = shared("vf_coef", 0.5)
    max_grad_norm: float = shared("max_grad_norm", 0.5)
    warmup_frames: int = shared("warmup_frames", -1, "-1: 200000 with --init, 0 without")
    kl_coef: float = setting(
        "weight of KL(start policy || policy) (-1: 1.0 with --init; needs --init)", -1.0
    )
    kl_decay: float = setting(
        "the KL weight is multiplied by this at each held-out evaluation whose win rate "
        "holds at or above the start's",
        0.5,
    )
    reverse_share: float = setting(
        "--method reverse: share of episodes started from stored states", 0.5
    )
    reverse_start: int = setting("--method reverse: first k (decisions before the end)", 5)
    reverse_step: int = setting("--method reverse: how far k moves back each time", 5)
    reverse_threshold: float = setting(
        "--method reverse: success rate from k that moves k back", 0.5
    )
    reverse_window: int = setting("--method reverse: episodes from k that measure it", 200)
    reverse_archive: int = setting("--method reverse: best games kept to start from", 1000)
    archive_from: str = setting(
        "--method reverse: before training, put the won games of this games file (friday "
        "explore's games.jsonl: deal seed and actions) into the archive as its won games, so "
        "episodes start k decisions before the end of a found win; each must be a won game "
        "of --level on a training deal that replays to a win",
        "",
    )
    eval_every: int = shared("eval_every", 10)
    eval_deals: int = shared("eval_deals", 200, "per level")
    eval_levels: str = setting(
        "levels of the held-out evaluation, e.g. 1,2,3,4 (empty: the trained level; it is "
        "always measured)",
        "",
    )
    checkpoint_every: int = shared("checkpoint_every", 10)
    device: str = shared("device", "auto")

    def resolved(self) -> RLConfig:
        """The configuration with the -1 defaults that depend on ``--init`` filled in."""
        config = dataclasses.replace(self)
        if config.warmup_frames == -1:
            config.warmup_frames = 200_000 if config.init else 0
        if config.reward == "":
            config.reward = "win_loss" if config.init else "score"
        if config.kl_coef == -1.0:
            config.kl_coef = 1.0 if config.init else 0.0
        if config.progress_coef_final == -1.0:
            config.progress_coef_final = config.progress_coef
        annealed = config.progress_coef_final != config.progress_coef
        if annealed and config.progress_anneal_frames == 0:
            config.progress_anneal_frames = config.frames
        return config

    def progress_coef_at(self, frames: int) -> float:
        """The progress coefficient of the update that starts after ``frames`` frames:
        ``progress_coef`` falling linearly to ``progress_coef_final`` over
        ``progress_anneal_frames`` (a resolved configuration's), then the final value."""
        start, final = self.progress_coef, self.progress_coef_final
        if final == start:
            return start
        share = min(1.0, frames / self.progress_anneal_frames)
        return start + (final - start) * share

    def trained_levels(self) -> list[int]:
        """The levels the run trains on: those of ``--levels`` in their order, else
        ``--level``."""
        if not self.levels.strip():
            return [self.level]
        try:
            named = [int(part) for part in self.levels.split(",")]
        except ValueError:
            named = [0]
        if any(level not in (1, 2, 3, 4) for level in named):
            raise RLConfigError(f"levels must be levels 1-4 like 1,2,3,4, got {self.levels!r}")
        if len(set(named)) != len(named):
            raise RLConfigError(f"levels must name each level once, got {self.levels!r}")
        return named

    def hidden_sizes(self) -> list[int]:
        return list(parse_hidden(self.hidden, RLConfigError))

    def eval_level_list(self) -> list[int]:
        """The levels measured: the trained one first, then the others of ``eval_levels``."""
        try:
            named = [int(part) for part in self.eval_levels.split(",") if part.strip()]
        except ValueError:
            named = [0]
        if any(level not in (1, 2, 3, 4) for level in named):
            raise RLConfigError(
                f"eval_levels must be levels 1-4 like 1,2,3,4, got {self.eval_levels!r}"
            )
        others = set(named) | set(self.trained_levels())
        return [self.level, *sorted(others - {self.level})]

    @property
    def batch(self) -> int:
        """Frames per rollout: an update learns from ``num_envs x num_steps`` at once."""
        return self.num_envs * self.num_steps

    def whole_rollouts(self) -> RLConfig:
        """``frames`` rounded up to whole rollouts (`batch`), the frames the run plays: a
        rollout is not cut short, and the progress bar's total must be what is run."""
        rollouts = -(-self.frames // self.batch)
        return dataclasses.replace(self, frames=rollouts * self.batch)

    def validate(self) -> RLConfig:
        """``self`` if every value is usable, else
        [`RLConfigError`][friday_agents.learning.rl.config.RLConfigError] naming the first that is
        not."""
        self._check_choices()
        self._check_counts()
        self._check_fractions()
        if self.kl_coef > 0 and not self.init:
            raise RLConfigError("kl_coef needs --init: the KL penalty pulls towards a start policy")
        self.hidden_sizes()
        self.eval_level_list()
        self._check_levels()
        return self

    def _check_levels(self) -> None:
        levels = self.trained_levels()
        if len(levels) == 1:
            return
        if self.level not in levels:
            raise RLConfigError(f"level {self.level} is not one of levels {self.levels!r}")
        if self.num_envs % len(levels):
            raise RLConfigError(
                f"num_envs ({self.num_envs}) must split equally among the {len(levels)} "
                f"levels {self.levels!r}"
            )
        if self.method == "reverse":
            raise RLConfigError(
                "levels: --method reverse trains on one level (its archive replays one "
                "level's games)"
            )

    def _check_annealing(self) -> None:
        final = self.progress_coef_final
        if self.progress_anneal_frames and final in (-1.0, self.progress_coef):
            raise RLConfigError(
                "progress_anneal_frames is only for an annealed coefficient: give "
                "--progress-coef-final too"
            )
        if final == -1.0:
            return
        if not math.isfinite(final) or final < 0:
            raise RLConfigError(f"progress_coef_final must be a finite number >= 0, got {final!r}")
        if final != self.progress_coef and self.reward != "progress":
            raise RLConfigError(
                f"progress_coef_final={final!r} is only for --reward progress, "
                f"not {self.reward or 'the default'!r}"
            )

    def _check_choices(self) -> None:
        if not self.out:
            raise RLConfigError("--out (the run folder) is required")
        if self.level not in (1, 2, 3, 4):
            raise RLConfigError(f"level must be 1-4, got {self.level!r}")
        for name, allowed in CHOICES.items():
            self.check_choice(name, allowed)
        self.check_progress_coef(self.progress_coef, self.reward)
        self._check_annealing()
        if self.init_temperature != "auto" and _positive_float(self.init_temperature) is None:
            raise RLConfigError(
                f"init_temperature must be auto or a positive number, got {self.init_temperature!r}"
            )
        if self.archive_from and self.method != "reverse":
            raise RLConfigError("archive_from needs --method reverse: it seeds its archive")
        if self.init and not self.init.endswith(".npz"):
            raise RLConfigError(f"init must be a PolicyNetwork .npz file, got {self.init!r}")

    def _check_counts(self) -> None:
        positive = (
            "frames",
            "num_envs",
            "num_steps",
            "minibatches",
            "epochs",
            "eval_deals",
            "checkpoint_every",
            "reverse_start",
            "reverse_step",
            "reverse_window",
            "reverse_archive",
        )
        self.check_at_least(1, *positive)
        self.check_at_least(0, "warmup_frames", "eval_every", "progress_anneal_frames")
        if (self.num_envs * self.num_steps) % self.minibatches:
            raise RLConfigError(
                f"num_envs x num_steps ({self.num_envs * self.num_steps}) must split into "
                f"{self.minibatches} equal minibatches"
            )

    def _check_fractions(self) -> None:
        ranges = {
            "learning_rate": (0.0, 1.0, "(]"),
            "gamma": (0.0, 1.0, "[]"),
            "gae_lambda": (0.0, 1.0, "[]"),
            "clip": (0.0, 10.0, "(]"),
            "kl_decay": (0.0, 1.0, "[]"),
            "reverse_share": (0.0, 1.0, "[]"),
            "reverse_threshold": (0.0, 1.0, "[]"),
        }
        for name, (low, high, closed) in ranges.items():
            self.check_between(name, low, high, closed)
        coefs = ("ent_coef", "vf_coef", "max_grad_norm", "kl_coef", "shaping_coef", "bonus_coef")
        self.check_at_least(0, *coefs)


def _positive_float(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if 0 < value < float("inf") else None
