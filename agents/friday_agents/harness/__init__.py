"""What running agents on games needs, whatever the job: the floor that the players, the
evaluation and the learning commands stand on. It imports no other part of friday_agents.

- ``deals`` — which deals are for evaluation, validation and training;
- ``games_file`` — the one reader of games files (JSON lines);
- ``parallel`` — the parallel game runner (`run_games`: a process pool or Ray tasks);
- ``stats`` — Wilson and bootstrap intervals, paired differences;
- ``progress`` — the progress-bar format and durations for people;
- ``files`` — output paths checked before writing, new run folders, model files a user
  named, files replaced atomically;
- ``interrupts`` — Ctrl-C: stop at a boundary, children leave it to the main process;
- ``errors`` — input a command refuses, and optional libraries that are not installed.
"""
