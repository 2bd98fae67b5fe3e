"""A Griffe extension for the API reference (mkdocs.yml loads it): ``friday_env.Game`` shows
the methods a game has.

``friday_env.Game`` is the type of a game of either core, an ABC whose cores' classes are
registered, not inherited: read as source it has one method, ``new``. Every game has the
reference engine's API, so this extension lists, under ``friday_env.Game``, the public
documented members of ``friday_env.engine.game.Game`` that every core's class has (the
compiled core has neither ``shuffle`` nor ``shuffled``). It also shows the read-only rules the
engine binds as methods (``score = scoring.score``) as methods with their docstrings: read
as source they are attributes without one.
"""

from __future__ import annotations

from typing import Any

import griffe

PUBLIC = "friday_env.core.Game"
REFERENCE = "friday_env.engine.game.Game"


def _as_method(cls: griffe.Class, attribute: griffe.Attribute, target: griffe.Function) -> None:
    """Replace ``name = module.function`` in ``cls`` by a method with ``target``'s signature
    (its first parameter named ``self``) and docstring."""
    first, *rest = target.parameters
    method = griffe.Function(
        attribute.name,
        lineno=attribute.lineno,
        endlineno=attribute.endlineno,
        parameters=griffe.Parameters(griffe.Parameter("self", kind=first.kind), *rest),
        returns=target.returns,
        docstring=griffe.Docstring(target.docstring.value) if target.docstring else None,
    )
    cls.set_member(attribute.name, method)


def _bind_rules(cls: griffe.Class, collection: Any) -> None:
    for attribute in [m for m in cls.members.values() if m.is_attribute and not m.is_alias]:
        if not isinstance(attribute.value, griffe.ExprAttribute):
            continue
        try:
            target = collection.get_member(attribute.value.canonical_path)
        except KeyError:  # a name from outside the package
            continue
        if isinstance(target, griffe.Function) and target.parameters:
            _as_method(cls, attribute, target)


def _shared(name: str) -> bool:
    """Whether a game of every core has the member ``name`` (a state field included)."""
    from friday_env.core import Game, available_cores

    return all(hasattr(Game.new(1, 0, core=core), name) for core in available_cores())


class GameAPI(griffe.Extension):
    """Shows the reference engine's bound rules as methods and lists every game's members
    under ``friday_env.Game``."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if pkg.name != "friday_env":
            return
        collection = loader.modules_collection
        reference, public = collection.get_member(REFERENCE), collection.get_member(PUBLIC)
        _bind_rules(reference, collection)
        # its base for type checkers (the reference's API, `_GameAPI`) is none at run time
        public.bases = []
        for name, member in reference.all_members.items():
            if name.startswith("_") or name in public.members or not _shared(name):
                continue
            target = member.final_target if member.is_alias else member
            if target.docstring:
                public.set_member(name, griffe.Alias(name, target, parent=public))
