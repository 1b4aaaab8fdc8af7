"""Errors that carry a one-line explanation for the person at the terminal."""


class HotpathError(Exception):
    """Bad input the user can fix: the message is the whole explanation, one line."""


class ResultsError(HotpathError):
    """A results file is missing, truncated, corrupt or not JMH's JSON."""


class UnknownNameError(HotpathError):
    """An unknown case, profile or parameter name."""
