"""Stage 1, measuring: JMH run under a profile, its forks planned, alternated and merged, the machine watched."""
