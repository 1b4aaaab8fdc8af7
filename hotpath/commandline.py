"""Commands declared beside their code: each with its one-line help and its arguments, the
shared ones written once (hotpath.cli holds the commands)."""

from __future__ import annotations

import argparse
from typing import Callable, NamedTuple

Command = Callable[[argparse.Namespace], object]


def arg(*flags: str, **options) -> tuple[tuple[str, ...], dict]:
    """One argument as argparse's add_argument takes it."""
    return flags, options


class Group(NamedTuple):
    """Arguments shown under a heading of their own in the command's help."""

    title: str
    arguments: tuple


def case_arg(default: str = "all") -> tuple:
    return arg("--case", default=default)


def profile_arg(default: str = "quick", help: str | None = None) -> tuple:
    return arg("--profile", default=default, **({"help": help} if help else {}))


def out_arg(help: str) -> tuple:
    return arg("--out", help=help)


PARAMETER = arg("-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
                help="override a parameter of the notebook's parameters cell")


#: Which benchmarks of builds to measure: JMH's include regex and -p restrictions.
SELECTION = (arg("--bench", help="JMH's include regex: which benchmarks (default: every one)"),
             arg("-p", action="append", metavar="NAME=V1,V2",
                 help="restrict a @Param to these values, as JMH's -p (repeatable)"))


def two_builds(first: tuple = (), then: tuple = ()) -> tuple:
    """What picks and names two builds' rows, as compare measures them and shards cuts them."""
    return (*first, *SELECTION,
            arg("--name", help="the run's name: data/results/ab/<name>/ and reports/ab/<name>/ "
                               "(default: <baseline>-vs-<candidate>)"),
            arg("--baseline-name", help="the baseline's name in the report (default: its file name)"),
            arg("--candidate-name", help="the candidate's name in the report (default: its file name)"),
            *then)


class Commands:
    """The commands in the order they were declared, and the parser that offers them."""

    def __init__(self) -> None:
        self.declared: list[tuple[str, str, tuple, Command]] = []

    def __call__(self, name: str, help: str, *arguments) -> Callable[[Command], Command]:
        """Declare a command: its name, its one-line help and its arguments (``arg`` or ``Group``)."""
        def register(func: Command) -> Command:
            self.declared.append((name, help, arguments, func))
            return func
        return register

    def parser(self, prog: str, description: str) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser(prog=prog, description=description)
        sub = p.add_subparsers(dest="command", required=True)
        for name, help, arguments, func in self.declared:
            c = sub.add_parser(name, help=help)
            for a in arguments:
                if isinstance(a, Group):
                    group = c.add_argument_group(a.title)
                    for flags, options in a.arguments:
                        group.add_argument(*flags, **options)
                else:
                    c.add_argument(*a[0], **a[1])
            c.set_defaults(func=func)
        return p
