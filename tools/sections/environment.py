"""The env's options, action ids and observation layouts (``docs/environment.md``) and the
README's one table of ``Friday-v0``, from ``friday_env``'s env and encoders."""

from __future__ import annotations

import re

from gymnasium import spaces

from friday_env.actions import codec as act
from friday_env.core import CORES
from friday_env.env import ILLEGAL_ACTION_MODES, RENDER_MODES, REWARD_MODES, SCORE_SCALE
from friday_env.episode import DEFAULT_PROGRESS_COEF, STATS
from friday_env.observation import (
    CARD_FEATURES,
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
from sections import table


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


def env_options_section() -> str:
    """The options of ``gymnasium.make("Friday-v0", ...)``."""
    options = [
        ["`level`", "1, 2, 3, 4", "difficulty (R24)"],
        [
            "`observation`",
            ", ".join(f'`"{n}"`' for n in encoder_names()),
            "a registered encoder ([`friday_env.observation.encoder_names()`]"
            "[friday_env.observation.encoder_names])",
        ],
        [
            "`reward`",
            ", ".join(f'`"{n}"`' for n in REWARD_MODES),
            f"+1/-1 at the end; or the final score (R25) / {SCORE_SCALE:g}; or +1/-1 plus "
            "`progress_coef` for each hazard and pirate beaten, paid when beaten and kept",
        ],
        [
            "`progress_coef`",
            f"a number >= 0 (None: {DEFAULT_PROGRESS_COEF:g})",
            'with `reward="progress"` only: the reward per hazard or pirate beaten',
        ],
        [
            "`illegal_action`",
            ", ".join(["`None`", *(f'`"{n}"`' for n in ILLEGAL_ACTION_MODES)]),
            "default: end the episode as a loss, with a warning; or the same silently, or "
            "raise `IllegalActionError`",
        ],
        ["`render_mode`", ", ".join(f'`"{n}"`' for n in RENDER_MODES), "text, printed, image"],
    ]
    return "\n".join(table(["option", "values", "meaning"], options))


def env_actions_section() -> str:
    """The action ids of ``Friday-v0`` (the engine's own)."""
    lines = [
        f"`Discrete({act.NUM_ACTIONS})` on every level: the engine's own action ids "
        f"([`friday_env.actions`][friday_env.actions]), with {act.MAX_SLOTS} table slots — "
        "every fighting card of the game — so no legal move is ever inexpressible. The mask is "
        "`game.legal_actions()`.",
        "",
        *table(["ids", "constant", "name"], _action_rows()),
    ]
    return "\n".join(lines)


def env_observations_section() -> str:
    """The layouts of the ``flat``, ``dict`` and ``flat_mask`` observations."""
    card_features = ", ".join(card_feature_names())
    extra = ", ".join(TABLE_EXTRA_FEATURES)
    lines = [
        f'`observation="flat"`: `Box(float32, ({FLAT_SIZE},))`, these pieces in order '
        "(`friday_env.observation.FLAT_LAYOUT`; `FLAT_LAYOUT.names()` names every entry):",
        "",
        *table(["offset", "size", "piece", "range", "meaning"], _flat_rows(), "rrlll"),
        "",
        f"Card features ({CARD_FEATURES} per card): {card_features}. Table features "
        f"({TABLE_FEATURES} per slot, {FLAT_TABLE_SLOTS} slots): the card features, then "
        f"{extra}.",
        "",
        '`observation="dict"`: integer arrays (card codes as in the '
        "[card list](cards.md#the-card-list)):",
        "",
        *table(["key", "space", "meaning"], _dict_rows()),
        "",
        '`observation="flat_mask"`: `{"observation": <flat>, "action_mask": <int8 mask>}`.',
    ]
    return "\n".join(lines)


def env_summary_section() -> str:
    """The README's one table of ``Friday-v0``: spaces, rewards, options, from the code."""
    dict_space = DictEncoder().space
    rows = [
        ["id", "`Friday-v0` (`import friday_env` registers it)"],
        [
            "actions",
            f"`Discrete({act.NUM_ACTIONS})`, the engine's own action ids, on every level; "
            'the legal ones in `info["action_mask"]` and `env.action_masks()` (int8)',
        ],
        [
            "observations",
            f'`"flat"` (default): `Box(float32, ({FLAT_SIZE},))`; `"dict"`: '
            f'{len(dict_space.spaces)} integer arrays; `"flat_mask"`: '
            '`{"observation", "action_mask"}`; only open information',
        ],
        [
            "reward",
            f'0 until the last step; `"win_loss"` (default) +1 / -1, `"score"` the final '
            f'score / {SCORE_SCALE:g}; or `"progress"`: +1 / -1 plus `progress_coef` '
            f"({DEFAULT_PROGRESS_COEF:g}) for each hazard and pirate beaten, kept",
        ],
        [
            "episode",
            "one game, about 50 (random play) to 300 (strong play) decisions; ends with "
            "`terminated=True`, never truncated",
        ],
        [
            "options",
            "`level` 1-4, `observation`, `reward`, `progress_coef`, `illegal_action` "
            f"({', '.join(f'`{m}`' for m in ('None', *ILLEGAL_ACTION_MODES))}), "
            f"`render_mode` ({', '.join(f'`{m}`' for m in RENDER_MODES)}), "
            f"`core` ({', '.join(f'`{c}`' for c in CORES)})",
        ],
        ["reset options", '`{"deal": n}` (a given deal), `{"scenario": {...}}` (start anywhere)'],
        ["last `info`", ", ".join(f"`{key}`" for key in STATS[:-1])],
    ]
    return "\n".join(table(["", "`Friday-v0`"], rows))


SECTIONS = {
    "env-options": ("docs/environment.md", lambda repo: env_options_section()),
    "env-actions": ("docs/environment.md", lambda repo: env_actions_section()),
    "env-observations": ("docs/environment.md", lambda repo: env_observations_section()),
    "env-summary": ("README.md", lambda repo: env_summary_section()),
}
