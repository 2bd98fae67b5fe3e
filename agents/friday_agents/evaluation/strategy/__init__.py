"""Analyses of how agents play: `trace` replays a game into
its events, `strategy` compares two players on the same deals
(``friday strategy``)."""
