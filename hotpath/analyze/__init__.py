"""Stage 2, analyzing: JMH JSON to a tidy frame, sides paired, fork-level verdicts, the write-ups' claims checked."""
