"""Tools that check the engine and the env: invariants of every reachable state
(`invariants`), seeded policies (`policies`),
random deals and checked games (`games`), the soak run
(``python -m friday_env.testing.soak``), golden playthroughs
(``python -m friday_env.testing.playthrough``), the tampered-state fuzzer of the compiled core
(``python -m friday_env.testing.tamper``) and [`api_test`][friday_env.testing.api_test] for an env
or a wrapper of it. Nothing here is needed to play or train; none of it writes files unless told
where.
"""

from friday_env.testing.api import api_test

__all__ = ["api_test"]
