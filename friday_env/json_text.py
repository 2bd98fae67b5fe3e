"""JSON that comes from outside (records, games files, run folders): one way to read it.

``json.loads`` lets three things through as tracebacks or as values no reader wants: text
nested deeper than the parser's recursion limit raises ``RecursionError``, bytes that are not
UTF-8 raise ``UnicodeDecodeError``, and the constants ``NaN``, ``Infinity`` and ``-Infinity``
(which JSON does not have, but Python's writer emits) come back as floats that then poison a
score or a mean. [`parse_json`][friday_env.json_text.parse_json] turns each of these, and
malformed text, into one [`JsonTextError`][friday_env.json_text.JsonTextError] with a one-line
reason (a phrase such as ``not valid JSON (...)``), which the caller wraps into its own
error naming the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NoReturn

from friday_env.errors import FridayError


class JsonTextError(FridayError):
    """Text that is not plain JSON: malformed, nested too deeply, not UTF-8, or holding a
    number JSON does not have (NaN, Infinity)."""


def _refuse_constant(name: str) -> NoReturn:
    raise JsonTextError(f"{name}, which is not a JSON number")


def parse_json(text: str | bytes) -> Any:
    """The value of ``text`` (bytes are decoded as UTF-8), or a `JsonTextError`."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise JsonTextError("nested too deeply to read") from None
    except UnicodeDecodeError as err:
        raise JsonTextError(f"not UTF-8 text (byte {err.start}: {err.reason})") from None
    except json.JSONDecodeError as err:
        raise JsonTextError(
            f"not valid JSON ({err.msg}: line {err.lineno} column {err.colno})"
        ) from None


def read_text(path: str | Path) -> str:
    """The UTF-8 text of ``path``; a `JsonTextError` saying why it cannot be read."""
    try:
        return Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as err:
        raise JsonTextError(f"not UTF-8 text (byte {err.start}: {err.reason})") from None
    except OSError as err:
        raise JsonTextError(str(err.strerror or err)) from None


def read_json(path: str | Path) -> Any:
    """The JSON value in the file ``path`` (`read_text`, then `parse_json`)."""
    return parse_json(read_text(path))


__all__ = ["JsonTextError", "parse_json", "read_json", "read_text"]
