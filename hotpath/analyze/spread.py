"""How far two machines of the study's kind part on the same time row, apart from the analysis
that holds one run against another (hotpath.analyze.against), so that the command line names
it without importing that."""

#: Each interval is widened by this factor each way (low / 1.15, high x 1.15) for the
#: differences between two machines of the study's kind.
MACHINE_SPREAD = 1.15
