"""The command line in its reader's language (issue 49): its help, typer's own words and its usage errors.

typer attaches the help it shows (an option's `help=`, a verb's docstring) to the click commands it builds; the
language is known before that (`rollbook.cli.language_asked`, from argv, then ROLLBOOK_LANG, then the locale), so
each command is given its help in that language as the command tree is built: the root as it starts, a verb when
it is looked up (`VerbsOnDemand.get_command`), a verb's own verbs (`users add`) with it. The English help is the
messages as written, so nothing is changed in English. The messages are the catalog's: an option's help is marked
`N_(...)` where it is written, a verb's docstring is its own message (tests/language/test_cli_language.py checks
each has its Russian).

typer's own words (the panels' titles, "Usage:", "[default: …]") and its usage errors ("No such option: …") are
not marked for any catalog: typer 0.29 vendors click without click's gettext calls, and keeps its words in
module constants (`typer.rich_utils`). So they are marked here, as typer writes them, and said from Rollbook's
catalog: the constants for the time of an invocation (`typers_words`), a usage error as it leaves the command
line (`usage_error_said`: recognised by its English, said with the values read from it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..domain.errors import N_
from ..language import gettext

#: typer's module constants (typer/rich_utils.py) that it prints in help and errors, with their English as typer
#: writes it (tests/language/test_cli_in_russian_only.py checks it still does).
TYPERS_WORDS = {
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"),
    "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"),
    "ERRORS_PANEL_TITLE": N_("Error"),
    "ABORTED_TEXT": N_("Aborted."),
    "RICH_HELP": N_("Try [blue]'{command_path} {help_option}'[/] for help."),
    "DEFAULT_STRING": N_("[default: {}]"),
    "ENVVAR_STRING": N_("[env var: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
    "DEPRECATED_STRING": N_("(deprecated) "),
}
#: The usage line's words: its prefix (click's `HelpFormatter.write_usage`) and a command's and a group's metavars.
USAGE, OPTIONS_METAVAR, SUBCOMMAND_METAVAR = N_("Usage:"), N_("[OPTIONS]"), N_("COMMAND [ARGS]...")

#: typer's usage errors a Rollbook command line meets, as typer words them (typer keeps only the message): recognised
#: by their English (a `{value}` is what typer put there), said from the catalog with the same values. The longer of
#: two alike comes first.
TYPERS_ERRORS = (
    N_("Missing command."),
    N_("No such command {name}."),
    N_("No such option: {option} (Possible options: {options})"),
    N_("No such option: {option}"),
    N_("Missing argument {name}."),
    N_("Missing option {name} (env var: {variable})."),
    N_("Missing option {name}."),
    N_("Got unexpected extra argument(s) ({words})"),
    N_("Option {option} requires an argument."),
    N_("Option {option} does not take a value."),
    N_("Invalid value for {name}: {reason}"),
)
#: Why typer refused a value, when pydantic did not say it (a word that is not one of a choice's).
TYPERS_REASONS = (N_("Value error, {value} is not one of {choices}."),)


def in_the_reader_language(command: Any) -> Any:
    """`command` with its help, its parameters' help and its usage line in the language spoken now; a group's
    verbs with it."""
    if command is None or getattr(command, "help_translated", False):
        return command
    for text in ("help", "short_help", "epilog"):
        if getattr(command, text, None):
            setattr(command, text, gettext(getattr(command, text)))
    for param in command.params:
        _translate_param(param)
    help_option, format_usage = command.get_help_option, command.format_usage

    def translated_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None and not getattr(option, "help_translated", False):
            _translate_param(option)
        return option

    def translated_usage(ctx: Any, formatter: Any) -> None:
        formatter.write_usage(ctx.command_path, " ".join(command.collect_usage_pieces(ctx)), f"{gettext(USAGE)} ")

    command.get_help_option, command.format_usage, command.help_translated = translated_help_option, \
        translated_usage, True
    if command.options_metavar:
        command.options_metavar = gettext(command.options_metavar)
    if getattr(command, "subcommand_metavar", None):
        command.subcommand_metavar = gettext(command.subcommand_metavar)
    for verb in getattr(command, "commands", {}).values():
        in_the_reader_language(verb)
    return command


def _translate_param(param: Any) -> None:
    if getattr(param, "help", None):
        param.help = gettext(param.help)
    param.help_translated = True


@contextmanager
def typers_words() -> Iterator[None]:
    """typer's words in the language spoken now, for the time of the block (typer reads its constants as it
    prints; an invocation in the same process after this one finds them as they were)."""
    from typer import rich_utils

    before = {name: getattr(rich_utils, name) for name in TYPERS_WORDS}
    for name, word in TYPERS_WORDS.items():
        setattr(rich_utils, name, gettext(word))
    try:
        yield
    finally:
        for name, word in before.items():
            setattr(rich_utils, name, word)


@contextmanager
def usage_error_said() -> Iterator[None]:
    """A usage error leaving the block is said in the language spoken now (typer prints it as it comes)."""
    from typer._click.exceptions import NoArgsIsHelpError, UsageError

    try:
        yield
    except NoArgsIsHelpError:
        raise  # not a mistake: the help, which is already in the reader's language
    except UsageError as error:
        said = recognised(error.format_message(), TYPERS_ERRORS, reason=lambda text: _reason(error, text))
        if said is None:
            raise
        translated = UsageError(said, ctx=error.ctx)
        translated.exit_code = error.exit_code
        raise translated from None


def recognised(text: str, templates: tuple[str, ...], **said: Any) -> str | None:
    """`text` in the language spoken now, if it is one of the English `templates` filled in: the first that
    matches, translated and filled with the same values (each said by its function in `said`, if any)."""
    for template in templates:
        found = _pattern(template).fullmatch(text)
        if found is not None:
            values = {key: said[key](value) if key in said else value for key, value in found.groupdict().items()}
            return gettext(template).format(**values)
    return None


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w*)\}", template)
    return re.compile("".join(re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)"
                              for index, part in enumerate(parts)), re.DOTALL)


def _reason(error: Any, text: str) -> str:
    """Why a value was refused: pydantic's reason said as Rollbook says a command's (commands/reasons.py), else
    one of typer's, else as typer said it."""
    from pydantic import ValidationError

    cause = error.__cause__
    if isinstance(cause, ValidationError) and cause.errors() and cause.errors()[0]["type"] != "value_error":
        from ..commands.reasons import reason
        from ..domain.errors import CommandRejected
        from ..language import refusal

        template, values = reason(cause.errors()[0], "", [])
        return refusal(CommandRejected(template, **values))
    return recognised(text, TYPERS_REASONS) or text
