"""``friday eval``: every agent on the same evaluation deals, with intervals and reports.

- ``evaluate`` — the command (arguments, resume, output files);
- ``runner`` — `EvalConfig` and the games, run in parallel and resumable;
- ``report`` — results JSON/CSV/Markdown and the README results section;
- ``plots`` — win-rate and score charts.
"""
