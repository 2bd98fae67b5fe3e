"""The sources of the compiled core (C) and the generator of its card tables.

The extension module itself is ``friday_env._core.compiled``; [`friday_env.core`][friday_env.core]
chooses between it and the pure-Python reference engine.
"""
