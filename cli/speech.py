"""The help of the command line in its reader's language (issue 49).

typer attaches the help it shows (an option's `help=`, a verb's docstring, the panels' titles) to the click
commands it builds; the language is known before that (`rollbook.cli.language_asked`, from argv, then
ROLLBOOK_LANG, then the locale), so each command is given its help in that language as the command tree is
built: the root as it starts, a verb when it is looked up (`VerbsOnDemand.get_command`). The English help is
the messages as written, so nothing is changed in English. The messages are the catalog's: an option's help
is marked `N_(...)` where it is written, a verb's docstring is its own message
(tests/language/test_cli_language.py checks each has its Russian).
"""

from __future__ import annotations

from typing import Any

from ..language import gettext

#: typer's panels, named by typer in English when a parameter or verb names none of its own.
ARGUMENTS, OPTIONS, COMMANDS = "Arguments", "Options", "Commands"


def in_the_reader_language(command: Any) -> Any:
    """`command` with its help, its parameters' and its panels' titles in the language spoken now."""
    if command is None or getattr(command, "help_translated", False):
        return command
    for text in ("help", "short_help", "epilog"):
        if getattr(command, text, None):
            setattr(command, text, gettext(getattr(command, text)))
    command.rich_help_panel = gettext(getattr(command, "rich_help_panel", None) or COMMANDS)
    for param in command.params:
        _translate_param(param)
    help_option = command.get_help_option

    def translated_help_option(ctx: Any) -> Any:
        option = help_option(ctx)
        if option is not None and not getattr(option, "help_translated", False):
            _translate_param(option)
        return option

    command.get_help_option, command.help_translated = translated_help_option, True
    return command


def _translate_param(param: Any) -> None:
    if getattr(param, "help", None):
        param.help = gettext(param.help)
    panel = getattr(param, "rich_help_panel", None) or (ARGUMENTS if param.param_type_name == "argument" else OPTIONS)
    param.rich_help_panel, param.help_translated = gettext(panel), True
