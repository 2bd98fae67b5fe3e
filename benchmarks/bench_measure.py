"""The measurements of ``friday bench``: each times one fixed piece of work and returns a rate.

Every function here measures one thing once; ``bench.py`` repeats them in interleaved rounds
and takes the ratios within each round. Rates are per second of this process's CPU time
(``time.process_time``), which other jobs on a shared machine slow down far less than the
wall clock; only the measurements that run worker processes ((h)) and the CleanRL recipe's
own frames/s ((l)) are wall-clock. Random play draws its choices from uniforms drawn before
the clock starts, so the driver loop weighs as little as possible on what is measured, and
every workload is seeded: two runs on the same machine do the same work.

Heavy libraries (gymnasium, torch, stable-baselines3) are imported inside the functions:
``friday --help`` imports this package without paying for them.
"""

from __future__ import annotations

import gc
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

from friday_env import Game

LEVELS = (1, 2, 3, 4)


#: How many uniforms a chooser draws before the clock starts (then reused in turn).
PREDRAWN = 1 << 16


def _random_chooser(seed: int) -> Callable[[Any], int]:
    """A uniform choice among legal actions (a list or an array of ids), seeded; its
    uniforms are drawn up front, so a choice costs one read and one index."""
    rng = random.Random(seed)
    uniforms = itertools.cycle([rng.random() for _ in range(PREDRAWN)])

    def choose(legal: Any) -> int:
        return legal[int(next(uniforms) * len(legal))]

    return choose


def random_play(actions: int, seed: int) -> tuple[int, Any]:
    """The compiled random-play loop: ``actions`` uniformly random legal actions over
    consecutive deals, drawn and played in C (its import is here alone, so that moving
    it changes one line)."""
    from friday_agents.players._kernels import random_play as play_in_c

    return play_in_c(actions, seed)


# ------------------------------------------------------------------ (a) engine actions/s


def engine_actions_per_s(actions: int, seed: int, core: str | None = None) -> float:
    """Actions per CPU second of the bare engine under random legal play
    (``legal_actions()`` then ``apply()``, new games of levels 1-4 in turn set up inside the
    timed loop). ``core``: the engine (None: the default core)."""
    choose = _random_chooser(seed)
    deal = seed
    game = Game.new(LEVELS[deal % 4], deal, core=core)
    start = time.process_time()
    for _ in range(actions):
        if game.done:
            deal += 1
            game = Game.new(LEVELS[deal % 4], deal, core=core)
        game.apply(choose(game.legal_actions()))
    return actions / (time.process_time() - start)


# ------------------------------------------------------- (d) complete games/s per level


def games_per_s(level: int, games: int, seed: int) -> tuple[float, float]:
    """Complete random games of ``level`` per CPU second (setup included), and the mean
    number of decisions per game."""
    choose = _random_chooser(seed)
    decisions = 0
    start = time.process_time()
    for deal in range(seed, seed + games):
        game = Game.new(level, deal)
        while not game.done:
            game.apply(choose(game.legal_actions()))
            decisions += 1
    return games / (time.process_time() - start), decisions / games


# ------------------------------------------------------------------- (e) clone() time


def random_states(count: int, seed: int) -> list[Game]:
    """``count`` states met in random games of every level (copies, every decision kind)."""
    choose = _random_chooser(seed)
    states: list[Game] = []
    deal = seed
    while len(states) < count:
        game = Game.new(LEVELS[deal % 4], deal)
        deal += 1
        while not game.done and len(states) < count:
            game.apply(choose(game.legal_actions()))
            states.append(game.clone())
    return states


def clone_us(states: list[Game], rounds: int) -> float:
    """Mean CPU microseconds of one ``Game.clone()`` over ``states``, each cloned ``rounds``
    times."""
    start = time.process_time()
    for _ in range(rounds):
        for state in states:
            state.clone()
    return (time.process_time() - start) / (rounds * len(states)) * 1e6


# --------------------------------------------------- (b), (c) gymnasium env steps/s


def env_steps_per_s(env_id: str, steps: int, seed: int, **kwargs: Any) -> float:
    """Steps per CPU second of ``gymnasium.make(env_id)`` (default wrappers) under random
    legal play.

    The loop is the same for every env: the legal actions are read off ``info["action_mask"]``
    (an env without one, such as Blackjack-v1, gets a constant all-legal mask, so its loop does
    the same work), one is chosen at random, and a finished episode is reset inside the timed
    loop."""
    import gymnasium as gym
    import numpy as np

    env = gym.make(env_id, **kwargs)
    all_legal = np.ones(env.action_space.n, np.bool_)  # type: ignore[attr-defined]
    choose = _random_chooser(seed)
    _, info = env.reset(seed=seed)
    start = time.process_time()
    for _ in range(steps):
        legal = np.flatnonzero(info.get("action_mask", all_legal))
        _, _, terminated, truncated, info = env.step(int(choose(legal)))
        if terminated or truncated:
            _, info = env.reset()
    elapsed = time.process_time() - start
    env.close()
    return steps / elapsed


# ------------------------------------------------------------- (g) memory per env


def memory_per_env_bytes(envs: int, steps: int, seed: int) -> float:
    """Bytes of Python and numpy memory each ``Friday-v0`` env holds (tracemalloc): ``envs``
    envs are made, reset and played ``steps`` random decisions, and kept alive together."""
    import tracemalloc

    import gymnasium as gym
    import numpy as np

    warm = gym.make("Friday-v0")  # imports, caches and registries are not per-env memory
    warm.reset(seed=seed)
    choose = _random_chooser(seed)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = []
        for i in range(envs):
            env = gym.make("Friday-v0")
            _, info = env.reset(seed=seed + i)
            for _ in range(steps):
                legal = np.flatnonzero(info["action_mask"])
                _, _, terminated, _, info = env.step(int(choose(legal)))
                if terminated:
                    _, info = env.reset()
            kept.append(env)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    return used / len(kept)


# --------------------------------------------------------- (h) vectorised envs steps/s


def _masked_choices(masks: Any, choose: Callable[[Any], int]) -> list[int]:
    """One random legal action per env; 0 where nothing is legal (an episode just ended:
    the vector env resets that env and ignores its action)."""
    import numpy as np

    actions = []
    for mask in masks:
        legal = np.flatnonzero(mask)
        actions.append(int(choose(legal)) if len(legal) else 0)
    return actions


def _timed_steps(step_once: Callable[[], None], iterations: int, repeats: int) -> list[float]:
    """Wall-clock seconds of ``iterations`` calls of ``step_once``, ``repeats`` times, after
    a warm-up (the work is in worker processes: this process's CPU time misses it)."""
    for _ in range(max(1, iterations // 10)):
        step_once()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(iterations):
            step_once()
        times.append(time.perf_counter() - start)
    return times


def gymnasium_async_steps_per_s(
    workers: int, iterations: int, repeats: int, seed: int
) -> list[float]:
    """Env steps/s of ``gymnasium.make_vec("Friday-v0", workers, vectorization_mode="async")``,
    masks read off ``info["action_mask"]``, once per repeat. Worker start-up is not timed."""
    import gymnasium as gym
    import numpy as np

    venv = gym.make_vec("friday_env:Friday-v0", num_envs=workers, vectorization_mode="async")
    choose = _random_chooser(seed)
    try:
        state = {"info": venv.reset(seed=seed)[1]}

        def step_once() -> None:
            actions = _masked_choices(state["info"]["action_mask"], choose)
            state["info"] = venv.step(np.array(actions))[4]

        times = _timed_steps(step_once, iterations, repeats)
    finally:
        venv.close()
    return [workers * iterations / t for t in times]


def sb3_subproc_steps_per_s(workers: int, iterations: int, repeats: int, seed: int) -> list[float]:
    """Env steps/s of stable-baselines3's ``SubprocVecEnv`` over ``Friday-v0``, masks fetched
    as MaskablePPO fetches them (``env_method("action_masks")``), once per repeat. Start-up
    is not timed."""
    import numpy as np
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import SubprocVecEnv

    venv = make_vec_env(
        "friday_env:Friday-v0",
        n_envs=workers,
        seed=seed,
        vec_env_cls=SubprocVecEnv,
        vec_env_kwargs={"start_method": "fork"},  # starts faster; start-up is not timed
    )
    choose = _random_chooser(seed)
    try:
        venv.reset()

        def step_once() -> None:
            masks = venv.env_method("action_masks")
            venv.step(np.array(_masked_choices(masks, choose)))

        times = _timed_steps(step_once, iterations, repeats)
    finally:
        venv.close()
    return [workers * iterations / t for t in times]


# --------------------------------------------------------- (f) MaskablePPO training fps

TRIVIAL_ENV_ID = "FridayBenchTrivial-v0"
UNENCODED_ENV_ID = "FridayBenchUnencoded-v0"


def register_bench_envs() -> None:
    """Register the stand-ins of ``bench_stand_ins.py`` with gymnasium (once); the entry
    points are the classes themselves, as this folder is not an installed package."""
    from bench_stand_ins import TrivialMaskedEnv, UnencodedFridayEnv
    from gymnasium.envs.registration import register, registry

    for env_id, entry_point in (
        (TRIVIAL_ENV_ID, TrivialMaskedEnv),
        (UNENCODED_ENV_ID, UnencodedFridayEnv),
    ):
        if env_id not in registry:
            register(id=env_id, entry_point=entry_point)


def _timed(venv: Any) -> Any:
    """``venv`` wrapped so that it adds up the CPU seconds spent stepping its envs (resets
    included) and fetching their masks: the env's share of a training frame."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.seconds = 0.0

        def reset(self) -> Any:
            return self.venv.reset()

        def step_wait(self) -> Any:
            start = time.process_time()
            out = self.venv.step_wait()
            self.seconds += time.process_time() - start
            return out

        def env_method(self, method_name: str, *args: Any, **kwargs: Any) -> list[Any]:
            start = time.process_time()
            out = self.venv.env_method(method_name, *args, **kwargs)
            self.seconds += time.process_time() - start
            return out

    return TimedVecEnv(venv)


class PPOTimer:
    """MaskablePPO on ``env_id``, ready to be timed: the model is built and has trained one
    warm-up round on a ``DummyVecEnv`` of ``gymnasium.make`` envs as ``make_vec_env`` builds
    it (what the README recommends). Neither is timed."""

    def __init__(self, env_id: str, settings: dict[str, Any], seed: int) -> None:
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.env_util import make_vec_env
        from stable_baselines3.common.logger import Logger

        register_bench_envs()
        self.venv = _timed(make_vec_env(env_id, n_envs=settings["n_envs"], seed=seed))
        self.model = MaskablePPO(
            "MlpPolicy",
            self.venv,
            n_steps=settings["n_steps"],
            batch_size=settings["batch_size"],
            n_epochs=settings["n_epochs"],
            policy_kwargs={"net_arch": settings["net_arch"]},
            seed=seed,
            device="cpu",
            verbose=0,
        )
        # a logger with no output: SB3 would otherwise make a directory in /tmp per model
        self.model.set_logger(Logger(folder=None, output_formats=[]))
        self.per_rollout = settings["n_envs"] * settings["n_steps"]
        self.model.learn(self.per_rollout)

    def fps(self, rollouts: int) -> tuple[float, float]:
        """Training frames per CPU second over ``rollouts`` rounds of collecting
        ``n_envs x n_steps`` steps and optimising on them (one torch thread), and the CPU µs
        per frame of those spent in the envs (stepping, resetting, masks)."""
        frames = rollouts * self.per_rollout
        self.venv.seconds = 0.0
        start = time.process_time()
        self.model.learn(frames, reset_num_timesteps=False)
        elapsed = time.process_time() - start
        return frames / elapsed, self.venv.seconds / frames * 1e6

    def close(self) -> None:
        self.venv.close()


# ------------------------------------------------ (n) friday rl against SB3 MaskablePPO

#: The setting of (n): the same PPO on both sides (separate 64-64 tanh actor and critic over
#: the flat observation, 64 envs x 128 steps, 4 epochs of 4 minibatches, level 1).
RL_SETTING = {"n_envs": 64, "n_steps": 128, "n_epochs": 4, "minibatches": 4, "net_arch": [64, 64]}
#: The parts of a ``friday rl`` frame (its trainer's `CpuParts`, the rest is bookkeeping).
RL_PARTS = ("env", "acting", "learning", "bookkeeping")


class RLTimer:
    """``friday rl``'s trainer at `RL_SETTING`, ready to be timed: built in a temporary run
    folder, one warm-up update done (neither timed), no held-out evaluation."""

    def __init__(self, setting: dict[str, Any], seed: int) -> None:
        import tempfile

        from friday_agents.learning.rl.config import RLConfig
        from friday_agents.learning.rl.trainer import Trainer

        self.folder = tempfile.TemporaryDirectory(prefix="friday-bench-rl-")
        config = RLConfig(
            out=f"{self.folder.name}/run",
            level=1,
            frames=1 << 62,  # never reached: no final evaluation
            num_envs=setting["n_envs"],
            num_steps=setting["n_steps"],
            epochs=setting["n_epochs"],
            minibatches=setting["minibatches"],
            hidden=",".join(map(str, setting["net_arch"])),
            eval_every=0,
            seed=seed,
        )
        self.trainer = Trainer(config)
        self.trainer._one_update()

    def fps(self, updates: int) -> tuple[float, dict[str, float]]:
        """Training frames per CPU second over ``updates`` updates (rollout and PPO update),
        and the CPU µs per frame of each of `RL_PARTS`."""
        trainer = self.trainer
        parts_before = dict(trainer.cpu.seconds)
        start = time.process_time()
        for _ in range(updates):
            trainer._one_update()
        elapsed = time.process_time() - start
        frames = updates * trainer.batch
        spent = {k: trainer.cpu.seconds[k] - parts_before[k] for k in parts_before}
        spent["bookkeeping"] = elapsed - sum(spent.values())
        return frames / elapsed, {k: spent[k] / frames * 1e6 for k in RL_PARTS}

    def close(self) -> None:
        self.trainer.close()
        self.folder.cleanup()


def sb3_rl_settings(setting: dict[str, Any]) -> dict[str, Any]:
    """`RL_SETTING` as `PPOTimer`'s settings (SB3's minibatch is a size, not a count)."""
    batch = setting["n_envs"] * setting["n_steps"] // setting["minibatches"]
    return {**setting, "batch_size": batch}


# ------------------------------------- (i)-(l) the compiled core beside the Python engine


def core_random_play_per_s(actions: int, seed: int) -> float:
    """Actions per CPU second of random legal play inside the compiled core: one C call
    plays ``actions`` actions over consecutive deals (levels 1-4 in turn, new games set up
    inside, as in (a)), each a uniform choice among the legal actions drawn in C."""
    start = time.process_time()
    played, _ = random_play(actions, seed)
    return played / (time.process_time() - start)


class LegalDraws:
    """Random legal actions for a vector env's masks, from rankings drawn up front.

    For each vector step and env a random ranking of the action ids (a permutation of
    ``1..num_actions``) is drawn before the clock starts; an env then takes its
    highest-ranked legal action, uniform among its legal ones (action 0 where none is
    legal: an episode just ended). Two numpy calls per vector step, a small fraction of a
    compiled env step."""

    def __init__(self, num_envs: int, num_actions: int, steps: int, seed: int) -> None:
        import numpy as np

        if num_actions > 255:  # the ranks are bytes
            raise ValueError(f"LegalDraws ranks at most 255 actions, got {num_actions}")
        ids = np.arange(1, num_actions + 1, dtype=np.uint8)
        shape = (steps, num_envs, num_actions)
        self.ranks = np.random.default_rng(seed).permuted(np.broadcast_to(ids, shape), axis=2)
        self._ranked = np.empty(shape[1:], np.uint8)
        self._step = 0

    def __call__(self, masks: Any) -> Any:
        """One legal action per row of ``masks`` (0/1 of one byte, or bools)."""
        import numpy as np

        ranks = self.ranks[self._step % len(self.ranks)]
        self._step += 1
        np.multiply(masks.view(np.uint8), ranks, out=self._ranked)
        return self._ranked.argmax(axis=1)


def vector_env_steps_per_s(make: Callable[[], Any], iterations: int, seed: int) -> float:
    """Env steps per CPU second (vector steps x envs) of a gymnasium vector env under random
    legal play: each vector step draws one legal action per env from ``info["action_mask"]``
    (an env without masks, Blackjack-v1, gets constant all-legal ones, so its loop does the
    same work) with `LegalDraws`, and steps. Autoreset is the env's own."""
    import numpy as np

    envs = make()
    warm_up = max(1, iterations // 10)
    n, actions = envs.num_envs, envs.single_action_space.n
    draw = LegalDraws(n, actions, warm_up + iterations, seed)
    all_legal = np.ones((n, actions), np.int8)
    _, info = envs.reset(seed=seed)
    for _ in range(warm_up):
        _, _, _, _, info = envs.step(draw(info.get("action_mask", all_legal)))
    start = time.process_time()
    for _ in range(iterations):
        _, _, _, _, info = envs.step(draw(info.get("action_mask", all_legal)))
    elapsed = time.process_time() - start
    envs.close()
    return n * iterations / elapsed


def friday_vector_env(num_envs: int, core: str) -> Any:
    """Friday-v0's native vector env (flat observations, masks), on ``core``."""
    import gymnasium as gym

    import friday_env  # noqa: F401  (registers Friday-v0)

    return gym.make_vec("Friday-v0", num_envs, vectorization_mode="vector_entry_point", core=core)


def blackjack_sync_vector_env(num_envs: int) -> Any:
    """Blackjack-v1 through gymnasium's ``SyncVectorEnv`` (same-step autoreset, as the
    native vector env)."""
    import gymnasium as gym

    return gym.make_vec(
        "Blackjack-v1",
        num_envs,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP},
    )


def cleanrl_recipe_path() -> Any:
    """``examples/cleanrl_masked_ppo.py`` of a source checkout, or None (an installed
    package has no examples)."""
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "cleanrl_masked_ppo.py"
    return path if path.exists() else None


def cleanrl_frames_per_s(
    vectorization: str, core: str, total_timesteps: int, num_envs: int, seed: int
) -> float:
    """Training frames/s of the CleanRL-style recipe (rollouts and PPO updates, as it runs),
    with its envs made by ``vectorization`` (``"vector_entry_point"``: the native vector
    env; ``"sync"``: a SyncVectorEnv of single envs) on ``core``."""
    import contextlib
    import importlib.util
    import io

    spec = importlib.util.spec_from_file_location("cleanrl_masked_ppo", cleanrl_recipe_path())
    recipe = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(recipe)  # type: ignore[union-attr]
    args = recipe.parse_args(
        [
            *("--total-timesteps", str(total_timesteps), "--num-envs", str(num_envs)),
            *("--seed", str(seed), "--vectorization", vectorization, "--core", core),
        ]
    )
    with contextlib.redirect_stdout(io.StringIO()):  # its progress lines
        summary = recipe.train(args)
    return float(summary["frames_per_s"])
