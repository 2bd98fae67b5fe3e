"""``net``: the strongest committed policy that plays without search (one network, every
level, numpy at play time)."""
