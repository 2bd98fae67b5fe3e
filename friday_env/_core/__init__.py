"""The compiled core: the game's C (its sources and header generators ship in the sdist only).

The extension module itself is ``friday_env._core.compiled``; [`friday_env.core`][friday_env.core]
chooses between it and the pure-Python reference engine. Other extensions (the agents' C kernels)
play on its games through the C API of ``friday_capi.h``.
"""
