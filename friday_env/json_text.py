"""JSON that comes from outside (records, games files, run folders): one way to read it.

``json.loads`` lets five things through as tracebacks or as values no reader wants: text
nested deeper than the parser's recursion limit raises ``RecursionError``, bytes that are not
UTF-8 raise ``UnicodeDecodeError``, an integer of more than 4,300 digits raises
``ValueError`` (CPython's limit on converting digits), and the constants ``NaN``,
``Infinity`` and ``-Infinity`` (which JSON does not have, but Python's writer emits) and a
number past the float range (``1e400``) come back as floats that then poison a score or a
mean. [`parse_json`][friday_env.json_text.parse_json] turns each of these, and
malformed text, into one [`JsonTextError`][friday_env.json_text.JsonTextError] with a one-line
reason (a phrase such as ``not valid JSON (...)``), which the caller wraps into its own
error naming the file.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, NoReturn

from friday_env.errors import FridayError
from friday_env.regular_file import NotRegularFileError, read_bytes


class JsonTextError(FridayError):
    """Text that is not plain JSON: malformed, nested too deeply, not UTF-8, or holding a
    number JSON does not have (NaN, Infinity) or no reader can hold (past the float range,
    an integer of more than 4,300 digits)."""


#: The most digits an integer may have: what CPython converts by default.
MAX_INT_DIGITS = 4300


def _refuse_constant(name: str) -> NoReturn:
    raise JsonTextError(f"{name}, which is not a JSON number")


def _int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise JsonTextError(
            f"an integer of {len(digits.lstrip('-'))} digits (at most {MAX_INT_DIGITS})"
        )
    return int(digits)


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise JsonTextError(f"the number {text[:20]}{'...' if len(text) > 20 else ''}, "
                            "past the float range")  # fmt: skip
    return value


def parse_json(text: str | bytes) -> Any:
    """The value of ``text`` (bytes are decoded as UTF-8), or a `JsonTextError`."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return json.loads(text, parse_constant=_refuse_constant, parse_int=_int, parse_float=_float)
    except RecursionError:
        raise JsonTextError("nested too deeply to read") from None
    except UnicodeDecodeError as err:
        raise JsonTextError(f"not UTF-8 text (byte {err.start}: {err.reason})") from None
    except json.JSONDecodeError as err:
        raise JsonTextError(
            f"not valid JSON ({err.msg}: line {err.lineno} column {err.colno})"
        ) from None


def read_text(path: str | Path) -> str:
    """The UTF-8 text of the regular file ``path``; a `JsonTextError` saying why it cannot
    be read (a FIFO or a device is refused: reading it would wait or never end)."""
    try:
        return read_bytes(path).decode("utf-8")
    except NotRegularFileError as err:
        raise JsonTextError(str(err)) from None
    except UnicodeDecodeError as err:
        raise JsonTextError(f"not UTF-8 text (byte {err.start}: {err.reason})") from None
    except OSError as err:
        raise JsonTextError(str(err.strerror or err)) from None


def read_json(path: str | Path) -> Any:
    """The JSON value in the file ``path`` (`read_text`, then `parse_json`)."""
    return parse_json(read_text(path))


__all__ = ["JsonTextError", "parse_json", "read_json", "read_text"]
