"""The players: every agent ``friday eval`` can name, and what they share.

``base`` (the [`Agent`][friday_agents.players.base.Agent] protocol and ``play_game``), ``registry``
(agents by name and ``name:key=value`` specs), ``contract`` (``agent_test(spec)``, what every
agent owes), ``random_agent``, ``human``, ``heuristic/``,
``search/`` (search, guided, oracle), ``ppo/`` (MaskablePPO policies) and ``net/`` (the network that
plays without search).
"""
