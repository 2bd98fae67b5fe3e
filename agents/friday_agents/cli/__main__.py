"""``python -m friday_agents.cli``: the ``friday`` command without the installed script."""

import sys

from friday_agents.cli import main

sys.exit(main())
