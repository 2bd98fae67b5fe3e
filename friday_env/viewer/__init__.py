"""A game viewer in the browser: a game record (or many) as one self-contained HTML page that
replays the game decision by decision (``friday view``).

``record_snapshots`` replays a record with the engine into what the page shows at each
decision; ``write_viewer`` writes the page. The page loads nothing from anywhere.
"""

from friday_env.viewer.page import ViewerGame, game_entry, viewer_html, write_viewer
from friday_env.viewer.snapshots import fight_starts, record_snapshots, snapshot

__all__ = [
    "ViewerGame",
    "fight_starts",
    "game_entry",
    "record_snapshots",
    "snapshot",
    "viewer_html",
    "write_viewer",
]
