"""The steady-state table's fork lengths: what the forks ran, the first fork the 2026-11-26 A/A
asked for, and the length the plan chose last."""

import math

import pandas as pd

from hotpath.render import forks


def pair(first=None, chosen=None):
    return pd.Series({"old_steady": [{"iterations": 40}, {"iterations": 20}],
                      "new_steady": [{"iterations": 40}, {"iterations": 20}],
                      "first_fork_iterations": first, "fork_iterations": chosen})


def test_a_row_of_scouts_and_chosen_forks_says_both():
    assert forks.lengths(pair(chosen=20), 0.1) == "2 s – 4 s; last chosen 2 s"


def test_a_first_fork_set_by_the_committed_a_a_says_why():
    text = forks.lengths(pair(first=40, chosen=40), 0.1)
    assert "first 4 s, for the slowdown the 2026-11-26 A/A saw" in text and text.endswith("last chosen 4 s")


def test_a_row_without_a_plan_record_says_what_its_forks_ran():
    assert forks.lengths(pair(first=math.nan, chosen=math.nan), 0.1) == "2 s – 4 s"
