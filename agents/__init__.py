"""Agents that play Friday, and the ``friday`` command-line tools that run them.

Only this package imports torch (and only where a learned policy needs it).
"""
