"""The measurements of ``friday bench``: each times one fixed piece of work and returns a rate.

Every function here measures one thing once; `friday_agents.bench.suite` repeats them and takes
medians. Random play everywhere picks uniformly among the legal actions with a seeded
``random.Random`` (the cheapest uniform choice in CPython, so the driver loop weighs as
little as possible on what is measured), and every workload is seeded, so two runs on the
same machine do the same work.

Heavy libraries (gymnasium, torch, stable-baselines3) are imported inside the functions:
``friday --help`` imports this package without paying for them.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable
from typing import Any

from friday_env import Game

LEVELS = (1, 2, 3, 4)


def _random_chooser(seed: int) -> Callable[[Any], int]:
    """A uniform choice among legal actions (a list or an array of ids), seeded."""
    draw = random.Random(seed).random

    def choose(legal: Any) -> int:
        return legal[int(draw() * len(legal))]

    return choose


# ------------------------------------------------------------------ (a) engine actions/s


def engine_actions_per_s(actions: int, seed: int, core: str | None = None) -> tuple[float, float]:
    """Actions per wall-clock second of the bare engine under random legal play
    (``legal_actions()`` then ``apply()``, new games of levels 1-4 in turn set up inside the
    timed loop), and per second of this process's CPU time (which other jobs on a shared
    machine do not slow down as much). ``core``: the engine (None: the default core)."""
    choose = _random_chooser(seed)
    deal = seed
    game = Game.new(LEVELS[deal % 4], deal, core=core)
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(actions):
        if game.done:
            deal += 1
            game = Game.new(LEVELS[deal % 4], deal, core=core)
        game.apply(choose(game.legal_actions()))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    return actions / wall, actions / cpu


# ------------------------------------------------------- (d) complete games/s per level


def games_per_s(level: int, games: int, seed: int) -> tuple[float, float]:
    """Complete random games of ``level`` per second (setup included), and the mean number
    of decisions per game."""
    choose = _random_chooser(seed)
    decisions = 0
    start = time.perf_counter()
    for deal in range(seed, seed + games):
        game = Game.new(level, deal)
        while not game.done:
            game.apply(choose(game.legal_actions()))
            decisions += 1
    return games / (time.perf_counter() - start), decisions / games


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
    """Mean microseconds of one ``Game.clone()`` over ``states``, each cloned ``rounds`` times."""
    start = time.perf_counter()
    for _ in range(rounds):
        for state in states:
            state.clone()
    return (time.perf_counter() - start) / (rounds * len(states)) * 1e6


# --------------------------------------------------- (b), (c) gymnasium env steps/s


def env_steps_per_s(env_id: str, steps: int, seed: int, **kwargs: Any) -> float:
    """Steps/s of ``gymnasium.make(env_id)`` (default wrappers) under random legal play.

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
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(info.get("action_mask", all_legal))
        _, _, terminated, truncated, info = env.step(int(choose(legal)))
        if terminated or truncated:
            _, info = env.reset()
    elapsed = time.perf_counter() - start
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
    """Seconds of ``iterations`` calls of ``step_once``, ``repeats`` times, after a warm-up."""
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
_BENCH_ENVS = {
    TRIVIAL_ENV_ID: "friday_agents.bench.envs:TrivialMaskedEnv",
    UNENCODED_ENV_ID: "friday_agents.bench.envs:UnencodedFridayEnv",
}


def register_bench_envs() -> None:
    """Register the stand-ins of `friday_agents.bench.envs` with gymnasium (once)."""
    from gymnasium.envs.registration import register, registry

    for env_id, entry_point in _BENCH_ENVS.items():
        if env_id not in registry:
            register(id=env_id, entry_point=entry_point)


def _timed(venv: Any) -> Any:
    """``venv`` wrapped so that it adds up the seconds spent stepping its envs (resets
    included) and fetching their masks: the env's share of a training frame."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class TimedVecEnv(VecEnvWrapper):
        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.seconds = 0.0

        def reset(self) -> Any:
            return self.venv.reset()

        def step_wait(self) -> Any:
            start = time.perf_counter()
            out = self.venv.step_wait()
            self.seconds += time.perf_counter() - start
            return out

        def env_method(self, method_name: str, *args: Any, **kwargs: Any) -> list[Any]:
            start = time.perf_counter()
            out = self.venv.env_method(method_name, *args, **kwargs)
            self.seconds += time.perf_counter() - start
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
        """Training frames/s over ``rollouts`` rounds of collecting ``n_envs x n_steps`` steps
        and optimising on them, and the µs per frame of those spent in the envs (stepping,
        resetting, masks)."""
        frames = rollouts * self.per_rollout
        self.venv.seconds = 0.0
        start = time.perf_counter()
        self.model.learn(frames, reset_num_timesteps=False)
        elapsed = time.perf_counter() - start
        return frames / elapsed, self.venv.seconds / frames * 1e6

    def close(self) -> None:
        self.venv.close()


# ------------------------------------- (i)-(l) the compiled core beside the Python engine


def core_random_play_per_s(actions: int, seed: int) -> float:
    """Actions/s of random legal play inside the compiled core: one C call plays ``actions``
    actions over consecutive deals (levels 1-4 in turn, new games set up inside, as in (a)),
    each a uniform choice among the legal actions drawn in C."""
    from friday_env._core import compiled as _compiled

    start = time.perf_counter()
    played, _ = _compiled.random_play(actions, seed)
    return played / (time.perf_counter() - start)


def random_legal_actions(masks: Any, rng: Any) -> Any:
    """One uniformly random legal action per row of ``masks`` (0/1), in numpy without a
    Python loop: the row's legal ids, and a uniform index into them."""
    import numpy as np

    rows, ids = np.nonzero(masks)
    counts = np.bincount(rows, minlength=len(masks))
    firsts = np.cumsum(counts) - counts
    return ids[firsts + (rng.random(len(masks)) * counts).astype(np.int64)]


def vector_env_steps_per_s(make: Callable[[], Any], iterations: int, seed: int) -> float:
    """Env steps/s (vector steps x envs) of a gymnasium vector env under random legal play:
    each vector step draws one legal action per env from ``info["action_mask"]`` (an env
    without masks, Blackjack-v1, gets constant all-legal ones, so its loop does the same
    work) with `random_legal_actions`, and steps. Autoreset is the env's own."""
    import numpy as np

    envs = make()
    rng = np.random.default_rng(seed)
    all_legal = np.ones((envs.num_envs, envs.single_action_space.n), np.int8)
    _, info = envs.reset(seed=seed)
    for _ in range(max(1, iterations // 10)):  # warm-up
        _, _, _, _, info = envs.step(random_legal_actions(info.get("action_mask", all_legal), rng))
    start = time.perf_counter()
    for _ in range(iterations):
        _, _, _, _, info = envs.step(random_legal_actions(info.get("action_mask", all_legal), rng))
    elapsed = time.perf_counter() - start
    envs.close()
    return envs.num_envs * iterations / elapsed


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

    path = Path(__file__).resolve().parents[3] / "examples" / "cleanrl_masked_ppo.py"
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
