"""The ``seog`` command: one sub-command per module of this package, each importing what it needs
only when it runs, so that ``seog score`` starts without the server, training or dataset code."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys

from seog import installed_version

COMMANDS = ["score", "annotate", "select", "train", "evaluate", "serve", "gtp", "match"]
EXTRAS = {"torch": "train", "matplotlib": "train", "distributed": "dask"}  # pyproject's optional-dependencies


class MissingExtra(ValueError):
    """A command needs a package of an optional extra that this install lacks."""


def need_extra(what: str, *modules: str) -> None:
    """Refuse (exit 1) ``what`` before any work when one of ``modules`` is not installed, naming
    the extra to install, rather than fail when the work needs it (``seog evaluate --csv`` draws
    its PNG after scoring every position)."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        extras = ",".join(sorted({EXTRAS[name] for name in missing}))
        raise MissingExtra(f"{what} needs {' and '.join(missing)}, which this install lacks: "
                           f"pip install 'seog[{extras}]'")


def positive_int(text: str) -> int:
    """An option that counts something: a whole number of 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"give 1 or more, not {value}")
    return value


def seconds(text: str) -> float:
    """A timeout option: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"give a positive number of seconds, not {text}")
    return value


def komi(text: str) -> float:
    """The --komi option (``scoring.rules.parse_komi``); its error, which names the limit, is an
    ArgumentTypeError, the one error argparse shows the text of."""
    from seog.scoring.rules import parse_komi

    try:
        return parse_komi(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="seog", description="Score finished games of Go.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"seog.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"seog.cli.{name}":
                continue  # that command has not landed yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader of our output went away (``seog score game.sgf | head``)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 141
    except (ValueError, OSError) as exc:
        print(f"seog {args.command}: error: {_message(exc)}", file=sys.stderr)
        return 1


def _message(exc: Exception) -> str:
    """The error line's text: an OSError from the system as 'PATH: why' (both paths of a rename),
    never Python's '[Errno 2] No such file or directory: 'PATH''; seog's own errors as they are."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        paths = exc.filename if exc.filename2 is None else f"{exc.filename} -> {exc.filename2}"
        return f"{paths}: {exc.strerror}"
    return str(exc)


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked (``importlib.metadata``
    and the email parser it pulls in slow every start: docs/benchmarks.md, "Starting a command")."""

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"seog {installed_version()}")
        parser.exit()


if __name__ == "__main__":
    sys.exit(main())
