"""``friday explore``: a Go-Explore archive on training deals, looking for wins without a teacher.

``archive`` explores one deal (the loop in C, ``players/explore.c``, and its Python twin);
``run`` keeps a run's folder (the journal of finished deals, the won games, the results).
"""
