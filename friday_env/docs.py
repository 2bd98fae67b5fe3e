"""Generated README sections: the one section splicer, and the card and env sections.

A generated section lies between ``<!-- section:NAME -->`` and ``<!-- /section:NAME -->``;
:func:`replace_section` puts a new body there and :func:`section_body` reads it (the agents'
results and benchmark sections use them too).

``python -m friday_env.docs README.md`` rewrites the ``cards`` and ``env`` sections of the
file it is given; ``--check`` only reports whether they are up to date (exit status 1 if not).
Every table here comes from the data the engine and the env use, so the README cannot drift.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from gymnasium import spaces

from friday_env.actions import codec as act
from friday_env.cards import ABILITY_NAMES, CARD_TYPES, Ability, Kind
from friday_env.env import (
    ILLEGAL_ACTION_MODES,
    RENDER_MODES,
    REWARD_MODES,
    SCORE_SCALE,
)
from friday_env.observation import (
    CARD_FEATURES,
    CODE_OF_TYPE,
    DICT_KEYS,
    FLAT_LAYOUT,
    FLAT_SIZE,
    FLAT_TABLE_SLOTS,
    TABLE_EXTRA_FEATURES,
    TABLE_FEATURES,
    DictEncoder,
    card_feature_names,
    encoder_names,
)

SECTIONS = ("cards", "env")
COMMAND = "python -m friday_env.docs README.md"


# --------------------------------------------------------------------- sections


def markers(name: str) -> tuple[str, str]:
    """The begin and end markers of the generated section ``name``."""
    return f"<!-- section:{name} -->", f"<!-- /section:{name} -->"


def _split(text: str, name: str) -> tuple[str, str, str]:
    """``text`` cut into what precedes the section, its body and what follows it."""
    begin, end = markers(name)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise ValueError(f"the text needs exactly one {begin} followed by one {end}")
    head, rest = text.split(begin)
    body, tail = rest.split(end)
    return head, body, tail


def section_body(text: str, name: str) -> str:
    """The body of section ``name`` in ``text``, as :func:`replace_section` wrote it."""
    return _split(text, name)[1].removeprefix("\n").removesuffix("\n")


def replace_section(text: str, name: str, body: str) -> str:
    """``text`` with the body of section ``name`` replaced by ``body`` (on lines of its own
    between the markers); raises ``ValueError`` if the markers are missing or repeated."""
    head, _, tail = _split(text, name)
    begin, end = markers(name)
    body = body.removesuffix("\n")
    return f"{head}{begin}\n{body}\n{end}{tail}"


def _table(header: list[str], rows: Sequence[Sequence[object]], align: str = "") -> list[str]:
    """A Markdown table; ``align`` holds one of ``l``/``r`` per column (default left)."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines


# ------------------------------------------------------------------------ cards


def _hazard_side(card) -> str:
    if card.kind == Kind.PIRATE:
        if card.key == "pirate/all-hazards":
            return "sum of the red values of the hazard discard pile"
        if card.key == "pirate/aging":
            return "2 per aging card added"
        return str(card.hazard_values[0])
    if card.kind == Kind.HAZARD:
        return " / ".join(str(v) for v in card.hazard_values)
    return ""


def _card_row(index: int) -> list[object]:
    card = CARD_TYPES[index]
    fighting = card.kind in (Kind.STARTING, Kind.AGING, Kind.HAZARD)
    ability = ABILITY_NAMES[card.ability] if card.ability != Ability.NONE else ""
    if card.kind == Kind.PIRATE:
        ability = card.title if card.special else ""
    kind = card.kind.name.lower()
    if card.kind == Kind.AGING:
        kind = "aging (difficult)" if card.difficult else "aging"
    free = card.free if card.kind in (Kind.HAZARD, Kind.PIRATE) else ""
    return [
        f"`{card.key}`",
        kind,
        card.value if fighting else "",
        ability,
        free,
        _hazard_side(card),
        card.count,
        CODE_OF_TYPE.get(index, ""),
    ]


def cards_section() -> str:
    rows = [_card_row(i) for i in range(len(CARD_TYPES))]
    total = sum(card.count for card in CARD_TYPES)
    lines = [
        "## Card keys",
        "",
        "Every distinct card has a key, used by `friday_env.scenario`, game records, "
        "`public_view` and the README; `code` is its number in the `dict` observation "
        "(0 = no card). Hazard cards list their knowledge side (value, ability) and their "
        "hazard side (free cards; value in the green / yellow / red step). "
        f"{total} cards in all.",
        "",
        *_table(
            ["key", "kind", "value", "ability", "free", "hazard value", "count", "code"],
            rows,
            "llrlrlrr",
        ),
        "",
        f"Generated by `{COMMAND}` from `friday_env/cards.py`.",
    ]
    return "\n".join(lines)


# -------------------------------------------------------------------------- env

_QUICKSTART = """```python
import gymnasium as gym
import numpy as np
import friday_env  # registers Friday-v0

env = gym.make("Friday-v0", level=1)          # observation="flat" | "dict" | "flat_mask"
obs, info = env.reset(seed=0)
rng = np.random.default_rng(0)
terminated = False
while not terminated:
    legal = np.flatnonzero(info["action_mask"])  # == env.unwrapped.action_masks()
    action = int(rng.choice(legal))
    print(env.unwrapped.describe_action(action))
    obs, reward, terminated, truncated, info = env.step(action)
print(reward, info["won"], info["final_score"])
```

With sb3-contrib (the mask comes from `env.action_masks()`, also through `SubprocVecEnv`);
`verbose=1` prints SB3's table of losses and episode statistics after every rollout (about
every second here), and the last lines measure the policy on 20 games:

```python
import friday_env  # registers Friday-v0
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.evaluation import evaluate_policy
from stable_baselines3.common.env_util import make_vec_env

envs = make_vec_env("Friday-v0", n_envs=4, env_kwargs={"level": 1})
model = MaskablePPO("MlpPolicy", envs, n_steps=256, verbose=1)
model.learn(100_000)  # about a minute on one core
mean_return, std_return = evaluate_policy(model, envs, n_eval_episodes=20)
print(f"mean return over 20 games: {mean_return:+.2f} (+1 win, -1 loss)")
```

With `SubprocVecEnv`, use the id `"friday_env:Friday-v0"`: each worker process then imports
`friday_env`, which registers the env there.

An agent can encode engine states without an env: `friday_env.FlatEncoder().encode(game)`;
`friday_env.observation.FlatView(obs)["table"]` reads a piece of the flat vector by name.
A new encoder is a class with `name`, `space` and `encode(game)` decorated with
`friday_env.observation.register_encoder`; `observation=` then accepts its name.
`friday_env.testing.api_test(env)` checks an env or a wrapper (masks, spaces, seeding).

**Illegal actions.** By default an action the mask forbids ends the episode as a lost game:
reward -1 (or the score / 100 with `reward="score"`), `terminated=True`,
`info["illegal_action"] = True`, and a warning the first time in each env. Why this default:
tools that know nothing of masks step random actions — Gymnasium's and SB3's `check_env`
(both pass on the defaults), `env.action_space.sample()`, unmasked baselines — and with a loss
they run and learn that illegal moves lose, while masked agents never meet it. Pass
`illegal_action="loss"` for the same without the warning, or `illegal_action="raise"` to get
`IllegalActionError` with the game untouched, to debug an agent that must stay in the mask.

**Masks.** `info["action_mask"]`, `env.action_masks()` and the `flat_mask` observation's mask
are the same 0/1 `int8` array (Gymnasium's mask dtype), so
`env.action_space.sample(mask=info["action_mask"])` draws a legal action. The step that ends
an episode returns an all-zero mask: nothing is legal in a finished game. In a Gymnasium vector
env with the default next-step autoreset, the step after that only resets the sub-env and
ignores its action, so any action will do there (`sample(mask=row)` returns 0 for an all-zero
row; code drawing from `np.flatnonzero(row)` must skip it); with
`vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP}` the row already holds the new
game's mask. SB3's vector envs reset in the same step, and MaskablePPO asks `action_masks()`
after the reset.

**Copies.** `copy.deepcopy(env)` and `pickle` / `cloudpickle` round trips give an independent
env that steps exactly like the original (observations, masks, rewards, and the next unseeded
reset); so does `copy.copy` of a `FridayEnv`. `copy.copy` of what `gym.make` returns copies
only the outermost wrapper (Python's shallow copy), so use `deepcopy` there. Search code that
only needs the game copies `env.unwrapped.game.clone()` (a few µs)."""


def _constants() -> dict[int, str]:
    """Action id -> name of the constant in ``friday_env.actions`` that starts there."""
    found: dict[int, str] = {}
    for name, value in vars(act).items():
        sizes = name.startswith(("NUM_", "MAX_")) or name == "SORT_SIZE"
        if name.isupper() and isinstance(value, int) and not sizes:
            found.setdefault(value, name)
    return found


def _action_rows() -> list[list[object]]:
    constants = _constants()
    rows: list[list[object]] = []
    start = 0
    while start < act.NUM_ACTIONS:
        pattern = re.sub(r"\d+", "#", act.ACTION_NAMES[start])
        end = start + 1
        while (
            end < act.NUM_ACTIONS
            and end not in constants
            and re.sub(r"\d+", "#", act.ACTION_NAMES[end]) == pattern
        ):
            end += 1
        ids = str(start) if end == start + 1 else f"{start}–{end - 1}"
        constant = constants[start]
        name = act.ACTION_NAMES[start]
        if end > start + 1:  # a range: USE_0 + k is "use slot k"
            constant = f"{constant.removesuffix('_0')}_k"
            name = pattern.replace("#", f"k (k = 0–{end - start - 1})")
        rows.append([ids, f"`{constant}`", name])
        start = end
    return rows


def _flat_rows() -> list[list[object]]:
    offsets = FLAT_LAYOUT.offsets
    return [
        [offsets[p.name], p.size, f"`{p.name}`", f"{p.low:g} … {p.high:g}", p.meaning]
        for p in FLAT_LAYOUT.pieces
    ]


def _space_text(space: spaces.Space) -> str:
    """A short name of a space: ``MultiDiscrete(59 x 49)``, ``Box(int64, (38,), 0..8)``."""
    if isinstance(space, spaces.MultiDiscrete):
        return f"MultiDiscrete({len(space.nvec)} × {int(space.nvec[0])})"
    if isinstance(space, spaces.Box):
        return f"Box({space.dtype}, {space.shape}, {space.low.min():g}…{space.high.max():g})"
    return str(space)


def _dict_rows() -> list[list[object]]:
    space = DictEncoder().space
    return [[f"`{key}`", _space_text(space[key]), meaning] for key, meaning in DICT_KEYS.items()]


def env_section() -> str:
    card_features = ", ".join(card_feature_names())
    extra = ", ".join(TABLE_EXTRA_FEATURES)
    options = [
        ["`level`", "1, 2, 3, 4", "difficulty (R24)"],
        [
            "`observation`",
            ", ".join(f'`"{n}"`' for n in encoder_names()),
            "a registered encoder (`friday_env.observation.encoder_names()`)",
        ],
        [
            "`reward`",
            ", ".join(f'`"{n}"`' for n in REWARD_MODES),
            f"+1/-1 at the end, or the final score (R25) / {SCORE_SCALE:g}",
        ],
        [
            "`illegal_action`",
            ", ".join(["`None`", *(f'`"{n}"`' for n in ILLEGAL_ACTION_MODES)]),
            "default: end the episode as a loss, with a warning; or the same silently, or "
            "raise `IllegalActionError` (below)",
        ],
        ["`render_mode`", ", ".join(f'`"{n}"`' for n in RENDER_MODES), "text, printed, image"],
    ]
    lines = [
        "## The Gymnasium environment `Friday-v0`",
        "",
        _QUICKSTART,
        "",
        *_table(["option", "values", "meaning"], options),
        "",
        '`reset(options={"deal": n})` plays `Game.new(level, n)` (an evaluation deal, say); '
        '`reset(options={"scenario": {...}})` starts from `friday_env.scenario(**...)`. '
        "The last `info` of an episode holds `final_score`, `won`, `level`, `fights`, `steps`. "
        "Full reference: the docstring of `friday_env.FridayEnv`.",
        "",
        "### Actions",
        "",
        f"`Discrete({act.NUM_ACTIONS})` on every level: the engine's own action ids "
        f"(`friday_env.actions`), with {act.MAX_SLOTS} table slots — every fighting card of "
        "the game — so no legal move is ever inexpressible. The mask is "
        "`game.legal_actions()`.",
        "",
        *_table(["ids", "constant", "name"], _action_rows()),
        "",
        "### Observations",
        "",
        "Only open information (R26): never the order of a stack beyond the known top, nor "
        "which aging cards were shuffled in unseen. Piles are counted by card type over "
        "`cards.FIGHTING_TYPES`.",
        "",
        f'`observation="flat"`: `Box(float32, ({FLAT_SIZE},))`, these pieces in order '
        "(`friday_env.observation.FLAT_LAYOUT`; `FLAT_LAYOUT.names()` names every entry):",
        "",
        *_table(["offset", "size", "piece", "range", "meaning"], _flat_rows(), "rrlll"),
        "",
        f"Card features ({CARD_FEATURES} per card): {card_features}. Table features "
        f"({TABLE_FEATURES} per slot, {FLAT_TABLE_SLOTS} slots): the card features, then "
        f"{extra}.",
        "",
        '`observation="dict"`: integer arrays (card codes as in the card keys table):',
        "",
        *_table(["key", "space", "meaning"], _dict_rows()),
        "",
        '`observation="flat_mask"`: `{"observation": <flat>, "action_mask": <int8 mask>}`.',
        "",
        f"Generated by `{COMMAND}` from the code.",
    ]
    return "\n".join(lines)


# ---------------------------------------------------------------------- README

GENERATORS = {"cards": cards_section, "env": env_section}


def rewrite(text: str) -> str:
    """``text`` (a README) with the generated sections replaced."""
    for name in SECTIONS:
        text = replace_section(text, name, GENERATORS[name]())
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m friday_env.docs",
        description="Rewrite the generated card and env sections of a README "
        f"(between <!-- section:NAME --> markers, NAME in {', '.join(SECTIONS)}).",
    )
    parser.add_argument("readme", type=Path, help="the README to rewrite, e.g. README.md")
    parser.add_argument("--check", action="store_true", help="only check, write nothing")
    args = parser.parse_args(argv)
    text = args.readme.read_text(encoding="utf-8")
    new = rewrite(text)
    if args.check:
        if new != text:
            print(f"{args.readme}: sections {', '.join(SECTIONS)} are out of date; run {COMMAND}")
            return 1
        print(f"{args.readme}: up to date")
        return 0
    if new != text:
        args.readme.write_text(new, encoding="utf-8")
    status = "rewritten" if new != text else "already up to date"
    print(f"{args.readme}: sections {', '.join(SECTIONS)} {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
