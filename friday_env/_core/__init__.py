"""The compiled core: the game's C (its sources ship in the sdist only; the generated headers
are written by ``tools/generate_headers.py`` of the repository, outside the package).

The extension module itself is ``friday_env._core.compiled``; [`friday_env.core`][friday_env.core]
chooses between it and the pure-Python reference engine. Other extensions (the agents' C kernels)
play on its games through the C API of ``friday_capi.h``.
"""
