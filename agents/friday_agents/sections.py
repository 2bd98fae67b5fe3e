"""Generated sections of Markdown files: the one section splicer.

A generated section lies between ``<!-- section:NAME -->`` and ``<!-- /section:NAME -->``;
[`replace_section`][friday_agents.sections.replace_section] puts a new body there and
[`section_body`][friday_agents.sections.section_body] reads it. The ``--readme FILE`` option of
``friday eval`` and ``friday bench`` (and the study reports in ``experiments/``) write their tables
into a documentation page this way, so re-running a measurement rewrites its table and nothing else.
"""

from __future__ import annotations


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
    """The body of section ``name`` in ``text``, as
    [`replace_section`][friday_agents.sections.replace_section] wrote it."""
    return _split(text, name)[1].removeprefix("\n").removesuffix("\n")


def replace_section(text: str, name: str, body: str) -> str:
    """``text`` with the body of section ``name`` replaced by ``body`` (on lines of its own
    between the markers); raises ``ValueError`` if the markers are missing or repeated."""
    head, _, tail = _split(text, name)
    begin, end = markers(name)
    body = body.removesuffix("\n")
    return f"{head}{begin}\n{body}\n{end}{tail}"
