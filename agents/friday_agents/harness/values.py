"""Values written as text, read one way everywhere: a flag's ``true/false`` and an agent
spec's ``search:hint=yes`` accept the same words."""

from __future__ import annotations

TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


def parse_bool(text: str) -> bool:
    """``true/false``, ``yes/no``, ``on/off``, ``1/0`` (any case); ValueError otherwise."""
    lowered = text.lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    raise ValueError(f"expected true or false, got {text!r}")
