"""The statistics every stage needs, each written once, below them all.

- ``forks``: the fork, not the iteration, is the unit of replication: a fork's mean, and the
  ratio of two sides' geometric means of them;
- ``welch``: Welch's statistic on the logs of two sides' fork means, and its fixed-sample
  interval of new/old;
- ``sequential``: the sequential rule: repeated confidence intervals looked at after every round,
  the three-state decision, the forks a row would need, and its simulation;
- ``steady``: a recorded fork's steady state, and the figure its counted iterations make.

The fork plan (hotpath.measure) closes rows by these rules as it runs; the analysis
(hotpath.analyze) gives the same rows their verdicts by them afterwards.
"""
