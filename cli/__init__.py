"""The `rollbook` command line.

Write verbs (`run`, `demo`, ...) log one structured line per command (structlog; `--log-format
json|console`, `-q` to silence). Read verbs (`sheet`, `ship`, `timeline`, `limits`, `rolls`,
`log`) catch the projections up and answer from them; they print rich tables, or stable JSON
with `--json`, and log nothing unless `-v`. Every verb takes `--store URL` (default
`$ROLLBOOK_STORE`, else `sqlite:///rollbook.db`).

Heavy modules are imported inside the verbs, and only the module of the verb that runs is
imported (`VERB_MODULES`), so `rollbook sheet` starts quickly. The verbs live in `write.py`,
`read.py`, `audit.py` and their neighbours; this module holds what they share, `opening.py` the
store or server a verb works on, and `printing.py` how they print tables, sheets and progress
for people.
"""

from __future__ import annotations

import json
import logging
import sys
from importlib import import_module
from enum import StrEnum
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from .. import settings as rollbook_settings
from ..domain.errors import N_ as N_  # help texts: cli/speech.py translates them when a command is built
from .plain import coerce_plainly, coerced_plainly


#: Options of `rollbook` itself, accepted after the verb too (`rollbook sheet Red -v`); the
#: value each takes, if any.
GLOBAL_OPTIONS = {"-v": False, "--verbose": False, "-q": False, "--quiet": False, "--log-format": True,
                  "--server": True, "--token": True, "--lang": True}


class GlobalOptionsAnywhere(TyperGroup):
    """Moves the global options found after the verb to before it, where click reads them."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        verb = next((i for i, word in enumerate(args) if not word.startswith("-")), None)
        if verb is not None:
            before, after, moved = args[: verb + 1], [], []
            rest = iter(args[verb + 1 :])
            for word in rest:
                if word == "--":
                    after += [word, *rest]
                    break
                name = word.split("=", 1)[0]
                if name in GLOBAL_OPTIONS:
                    moved.append(word)
                    if GLOBAL_OPTIONS[name] and "=" not in word:
                        moved.append(next(rest, ""))
                else:
                    after.append(word)
            args = [*moved, *before, *after] if moved else args
        return super().parse_args(ctx, args)


#: Every verb and the module of this package that registers it on `app`, in the order
#: `rollbook --help` lists them.
VERB_MODULES = {
    **dict.fromkeys(["replay", "dispute", "revisions", "verify", "checkpoint"], "audit"),
    **dict.fromkeys(["export", "import"], "transfer"),
    "follow": "follow",
    **dict.fromkeys(["use", "campaigns", "characters"], "listing"),
    "odds": "odds",
    **dict.fromkeys(["post", "undo"], "posting"),
    **dict.fromkeys(["sheet", "ship", "timeline", "limits", "rolls", "log", "schema", "moves"], "read"),
    "serve": "serve",
    "grant": "users",
    **dict.fromkeys(["login", "logout", "whoami"], "login"),
    **dict.fromkeys(["run", "demo", "rebuild"], "write"),
    "users": "users",
    **dict.fromkeys(["prove", "check-proof"], "prove"),
    "witness": "witness",
    **dict.fromkeys(["discord", "webhook", "line"], "discord"),
    "telegram": "telegram",
}


class VerbsOnDemand(GlobalOptionsAnywhere):
    """Imports a verb's module when the verb is asked for: a verb that runs imports its own module
    only, the help and shell completion (which ask for every verb) all of them."""

    def list_commands(self, ctx: Any) -> list[str]:
        return list(VERB_MODULES)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        coerce_plainly(self.get_params(ctx))
        return super().parse_args(ctx, args)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with usage_errors_said():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with usage_errors_said():  # a verb's usage error: a verb's own parameters are read as it is invoked
            return super().invoke(ctx)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in VERB_MODULES:
            import_module(f"{__name__}.{VERB_MODULES[cmd_name]}")
            # The module registered its verbs on `app`; the group typer makes of it has them as click commands.
            self.commands.update(typer.main.get_group(app).commands)
        return coerced_plainly(in_the_reader_language(super().get_command(ctx, cmd_name)))

    def main(self, args: Any = None, *rest: Any, **options: Any) -> Any:
        """The invocation in the language asked for: known before click reads a word, so that `--help` (read
        first of all) is said in it too."""
        words = sys.argv[1:] if args is None else list(args)
        before, settings.language = settings.language, chosen_language(language_asked(words))
        try:
            if settings.language == Language.en:  # the messages as written: nothing to import
                return super().main(args, *rest, **options)
            from ..language import speaking
            from .speech import typers_words

            with speaking(settings.language), typers_words():
                in_the_reader_language(self)
                return super().main(args, *rest, **options)
        finally:  # an invocation in process (a test, `serve`'s helpers) leaves the language as it found it
            settings.language = before


def language_asked(words: list[str]) -> str | None:
    """The value of the last `--lang` among the command line's words (before a `--`), as click would read it."""
    asked = None
    for index, word in enumerate(words):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(words):
            asked = words[index + 1]
        elif word.startswith("--lang="):
            asked = word.removeprefix("--lang=")
    return asked


def in_the_reader_language(command: Any) -> Any:
    """`command` with its help in the reader's language (cli/speech.py; English is the help as written)."""
    if settings.language == Language.en:
        return command
    from .speech import in_the_reader_language as translated

    return translated(command)


def usage_errors_said() -> AbstractContextManager[None]:
    """A usage error (a bad option, a missing argument) said in the reader's language (cli/speech.py)."""
    if settings.language == Language.en:
        return nullcontext()
    from .speech import usage_error_said

    return usage_error_said()


app = typer.Typer(
    name="rollbook",
    cls=VerbsOnDemand,
    help=N_("Event-sourced session simulator for play-by-post role-playing campaigns."),
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class LogFormat(StrEnum):
    console = "console"
    json = "json"


class Language(StrEnum):
    """The languages of domain/options.py's LANGUAGES (not imported here: `post --server` starts without the domain)."""

    en = "en"
    ru = "ru"


def chosen_language(flag: str | None) -> str:
    """The CLI's language: `--lang`, else `ROLLBOOK_LANG`, else the POSIX locale (the first of `LC_ALL`,
    `LC_MESSAGES`, `LANG` set, as `ru_RU.UTF-8`), else English. A language Rollbook does not speak is English."""
    for asked in (flag, rollbook_settings.text("lang"), rollbook_settings.locale()):
        if asked:
            code = asked.split(".", 1)[0].split("_", 1)[0].split("-", 1)[0].lower()
            return code if code in set(Language) else Language.en.value
    return Language.en.value


class Settings:
    store: str | None = None
    log_format: LogFormat = LogFormat.console
    verbose: bool = False
    quiet: bool = False
    server: str | None = None
    token: str | None = None
    #: The language of what the CLI prints for people (never of its --json): `--lang`, ROLLBOOK_LANG, the locale.
    language: str = "en"
    #: The running invocation's context: what a verb opens is closed when it ends (`open_store`).
    context: typer.Context | None = None


settings = Settings()

StoreOption = Annotated[str | None, typer.Option("--store", help=N_("Store URL (sqlite:///FILE, memory://, postgresql://...)."))]
CampaignOption = Annotated[str | None, typer.Option(
    "--campaign", "-c", envvar=rollbook_settings.variable("campaign"), show_envvar=True,
    help=N_("The campaign's id (default: $ROLLBOOK_CAMPAIGN, else the one `rollbook use` chose)."))]
JsonOption = Annotated[bool, typer.Option("--json", help=N_("Print stable JSON instead of tables."))]
AtOption = Annotated[
    str | None,
    typer.Option("--at", help=N_("A point: event position, command id, ISO time, or chapter:3 / scene:12 / issue:2 …")),
]
RevisionOption = Annotated[int | None, typer.Option("--revision", help=N_("A revision of the campaign (default: current)."))]


@app.callback()
def main_options(
    context: typer.Context,
    log_format: Annotated[LogFormat, typer.Option("--log-format", help=N_("Log lines as console text or JSON."))] = LogFormat.console,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=N_("Log read verbs too."))] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=N_("No per-command log lines, no lines in words."))] = False,
    store: Annotated[str | None, typer.Option("--store", help=N_("Store URL, for every verb (as the verb's own --store)."))] = None,
    server: Annotated[str | None, typer.Option(
        "--server", envvar=rollbook_settings.variable("server"),
        help=N_("A `rollbook serve` URL: the verbs go there instead of a store (default: the server of "
                "`rollbook login`, unless --store or $ROLLBOOK_STORE names a store)."))] = None,
    token: Annotated[str | None, typer.Option(
        "--token", envvar=rollbook_settings.variable("token"),
        help=N_("The token to sign in to --server with (default: the one `rollbook login` kept for it)."))] = None,
    lang: Annotated[Language | None, typer.Option(
        "--lang", help=N_("The language of the lines printed for people: en or ru (default: $ROLLBOOK_LANG, else the "
                          "locale's, else en); --json is the same in every language."))] = None,
    version: Annotated[bool, typer.Option(
        "--version", is_eager=True, callback=lambda shown: _print_version() if shown else None,
        help=N_("Print the version and exit."))] = False,
) -> None:
    """Global options go before or after the verb: `rollbook -v sheet Red` or `rollbook sheet Red -v`."""
    settings.log_format, settings.verbose, settings.quiet, settings.store = log_format, verbose, quiet, store
    settings.server, settings.token, settings.context = server, token, context
    settings.language = chosen_language(lang)


def gettext(message: str) -> str:
    """A message for people in the CLI's language (the catalog is read only for another language than English:
    a `post --server` starts without it)."""
    if settings.language == Language.en:
        return message
    from ..language import gettext as translated

    return translated(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """A counted message for people in the CLI's language, by its plural rule."""
    if settings.language == Language.en:
        return singular if count == 1 else plural
    from ..language import ngettext as translated

    return translated(singular, plural, count)


def by_this_user() -> str:
    """Who a CLI change to users, links and settings is recorded as: the operating system's user."""
    import getpass

    return f"cli:{getpass.getuser()}"


def retries_said() -> Callable[[str], None] | None:
    """With -v, a --server request's retries are said on standard error; else nothing is."""
    return (lambda line: say(line, err=True)) if settings.verbose else None


def _print_version() -> None:
    from importlib.metadata import version

    typer.echo(f"rollbook {version('rollbook')}")
    raise typer.Exit()


def _printable_values(logger: Any, method: str, event: dict[str, Any]) -> dict[str, Any]:
    """A log line names commands and characters: their control characters are escaped as on screen."""
    return {key: printable(value) if isinstance(value, str) else value for key, value in event.items()}


def configure_logging(*, writing: bool) -> None:
    """Log lines at INFO for a writing verb without -q, or with -v; else errors only, and structlog
    (which imports rich) is set up only if one comes: a `post` or `-q run` that goes well imports none."""
    from ..store import logs

    level = logging.WARNING
    if (writing and not settings.quiet) or settings.verbose:
        level = logging.INFO
    if level > logging.INFO:
        logs.show_from(level, lambda shown_as=settings.log_format: _configure_structlog(level, shown_as))
    else:
        _configure_structlog(level, settings.log_format)
        logs.show_from(level)


def _configure_structlog(level: int, log_format: LogFormat) -> None:
    import structlog

    renderer: Any = (
        structlog.processors.JSONRenderer()
        if log_format is LogFormat.json
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            _printable_values,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        # Standard error as it is when a line is logged, not when logging was set up (a test's
        # captured stream is closed by then).
        logger_factory=lambda *_: structlog.PrintLogger(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


#: C0 and C1 control characters but tab and newline: a name or id holding them (an escape code that
#: clears the screen or forges a line) is shown as `\x1b`, never sent to the terminal as it is.
_CONTROLS = [*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)]
_AS_TEXT = {code: f"\\x{code:02x}" for code in _CONTROLS}
#: In JSON, the ones `json.dumps` leaves raw (DEL and C1) as \u escapes: the same string, still valid JSON.
_AS_JSON = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}


def printable(text: Any) -> str:
    """`text` safe for a terminal: control characters escaped (see `_CONTROLS`)."""
    return str(text).translate(_AS_TEXT)


def say(text: Any, *, err: bool = False) -> None:
    """Every line the CLI prints goes through here, so no stored name reaches the terminal raw."""
    typer.echo(printable(text), err=err)


def fail(message: str, code: int = 1) -> NoReturn:
    say(f"rollbook: {message}", err=True)
    raise typer.Exit(code)


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False, indent=2, default=str).translate(_AS_JSON))


def guarded(function: Any) -> Any:
    """Refusals (unknown campaign, character...) become a message and exit status 1."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ..domain.errors import CommandRejected

        try:
            return function(*args, **kwargs)
        except CommandRejected as error:
            fail(refused(error))
        except Exception as error:  # the database went away, is read-only or full
            # Imported on a failure only: it imports the store, which `post --server` never opens.
            from ..store.failures import RERUN_HINT, describe, is_store_failure

            if not is_store_failure(error):
                raise
            fail(gettext("the store failed: {reason}").format(reason=describe(error))
                 + (f"; {gettext(RERUN_HINT)}" if function.__name__ == "run" else ""))

    return wrapper


def refused(error: Any) -> str:
    """A refusal in the reader's language, after the field it names (a field's name is as typed); in English, the
    refusal as recorded (the catalogs are not read)."""
    if settings.language == Language.en:
        return str(error)
    from ..language import refusal

    return f"{error.field}: {refusal(error)}" if error.field else refusal(error)


def main() -> None:
    from ..domain.errors import RulesetUnavailable

    try:
        app()
    except RulesetUnavailable as error:  # a broken install: said in one line, not a traceback
        typer.echo(f"rollbook: {error}", err=True)
        raise SystemExit(2) from None
