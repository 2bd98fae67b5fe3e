"""Agents for *Friday the 13th* (``friday_env.thirteen``), its evaluation and its self-play
training: ``players`` (random, heuristic, search, net, by spec), ``network`` (the numpy
policy the net agent plays), ``evaluation`` (``friday thirteen eval``) and ``selfplay``
(``friday thirteen train``, torch)."""
