"""``friday bench``: engine and environment speed, measured and written where it is told.

- ``suite`` — the command: the measurements, their budgets and targets, the results file;
- ``measure`` — each measurement, run once;
- ``envs`` — stand-in envs that bound what the encoder and the env cost;
- ``report`` — results as a text table and the README's performance section.
"""
