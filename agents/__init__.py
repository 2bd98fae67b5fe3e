"""Agents that play Friday, and the ``friday`` command-line tools that run them.

Only this package imports torch (and only where a learned policy needs it).

- ``base`` — the :class:`~friday_agents.base.Agent` protocol and :func:`~friday_agents.base.play_game`;
  ``registry`` — agents by name (one line per agent) and ``name:key=value`` specs.
- ``random_agent``, ``heuristic`` (with ``heuristic_rules``, ``fight``, ``knowledge``),
  ``search`` (with ``value``, fitted by ``value_fit``) — the agents; ``human`` and
  ``human_replay`` — ``friday play`` and ``friday replay``.
- ``seeds`` — evaluation deals vs training deals; ``evaluate`` (``friday eval``) with
  ``runner`` (parallel games, resume), ``stats`` (Wilson, bootstrap), ``report`` and
  ``plots``; ``heuristic_tune`` — measuring heuristic settings on training deals.
"""
