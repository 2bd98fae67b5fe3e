"""The errors a command refuses its input with, before it writes anything.

``friday`` prints each as one line and exits with status 2: input it refuses
(`BadInputError`), or an optional library a command needs that is not installed
(`MissingExtraError`, naming the extra that installs it instead of a
``ModuleNotFoundError`` traceback).
"""

from __future__ import annotations

import importlib.util

from friday_env.errors import FridayError

#: The optional libraries and the extra of friday-env that installs each.
EXTRA_OF = {
    "tqdm": "eval",
    "matplotlib": "eval",
    "torch": "rl",
    "stable_baselines3": "rl",
    "sb3_contrib": "rl",
    "ray": "ray",
}

#: The one writer of generated Markdown: it renders every section of the README, the docs
#: pages and the study reports from the committed results files (a script of the repository).
RENDERER = "python tools/docs_sections.py"
#: What replaces ``--readme FILE``, for the flag's refusal.
README_GONE = (
    "commands write results files only; render the Markdown sections from the committed "
    f"results with {RENDERER}"
)


class BadInputError(FridayError):
    """Input a command refuses before it writes anything: ``friday`` prints the message as
    one line and exits with status 2."""


class MissingExtraError(FridayError):
    """An optional library a command needs is not installed."""

    def __init__(self, module: str, purpose: str) -> None:
        self.module = module
        self.extra = EXTRA_OF[module]
        super().__init__(
            f"{purpose} needs {module}, which is not installed; install it with: "
            f"pip install 'friday-env[{self.extra}]'"
        )


def require(purpose: str, *modules: str) -> None:
    """Raise `MissingExtraError` for the first of ``modules`` that cannot be imported
    (checked without importing it)."""
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a blocked or broken module counts as missing
            found = False
        if not found:
            raise MissingExtraError(module, purpose)


def missing_extra(err: ModuleNotFoundError, purpose: str) -> MissingExtraError | None:
    """The `MissingExtraError` behind ``err`` if it is an optional library's."""
    top = (err.name or "").partition(".")[0]
    return MissingExtraError(top, purpose) if top in EXTRA_OF else None
