"""The settings model: every variable Rollbook reads, with its type, default and what it does.

README, "Settings", lists them from here (tests/core/test_settings.py checks the table against the fields).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import AliasChoices, BeforeValidator, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from .environment import variable

#: The words that turn a switch off; anything else set turns it on (unset or empty: its default).
OFF = ("0", "false", "no")

Switch = Annotated[bool, BeforeValidator(lambda value: value not in OFF if isinstance(value, str) else value)]


def named(name: str) -> AliasChoices:
    """A variable named whole, without the ROLLBOOK_ prefix."""
    return AliasChoices(name)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix=variable(""), env_ignore_empty=True, extra="ignore", frozen=True)

    # The store and the CLI
    store: str | None = Field(None, description="The store's URL when no --store is given (else "
                              "sqlite:///rollbook.db).")
    campaign: str | None = Field(None, description="The campaign when no -c is given (else the one `rollbook use` "
                                 "chose).")
    server: str | None = Field(None, description="The `rollbook serve` the CLI's verbs go to when no --server is "
                               "given (else the one `rollbook login` kept).")
    token: str | None = Field(None, description="The token the CLI signs in to the server with when no --token is "
                              "given.")
    lang: str | None = Field(None, description="The language of the CLI's lines for people when no --lang is given: "
                             "en or ru (else the POSIX locale's).")
    lc_all: str | None = Field(None, validation_alias=named("LC_ALL"),
                               description="The POSIX locale; the first of LC_ALL, LC_MESSAGES, LANG set chooses the "
                               "CLI's language when neither --lang nor ROLLBOOK_LANG does.")
    lc_messages: str | None = Field(None, validation_alias=named("LC_MESSAGES"), description="See LC_ALL.")
    posix_lang: str | None = Field(None, validation_alias=named("LANG"), description="See LC_ALL.")
    state: Path | None = Field(None, description="The folder of Rollbook's own files beside a PostgreSQL store (the "
                               "default campaigns, the witness's file) (else the user's data folder).")
    secrets: Path | None = Field(None, description="The folder of a PostgreSQL store's secrets: its seeds, signing "
                                 "keys, Discord and Telegram settings (else secrets in the user's data folder).")
    witness_state: Path | None = Field(None, description="The witness's own SQLite file when no --state is given "
                                       "(else witness.db in ROLLBOOK_STATE's folder).")
    public_host: str | None = Field(None, description="The host a campaign's log is named under "
                                    "(HOST/rollbook/CAMPAIGN); set it once, before the first checkpoint.")
    # The rules of the table
    require_salt: Switch = Field(False, description="A player's roll must be salted (1 to require; 0, false or no "
                                 "not to).")
    # The server's integrations
    public_url: str | None = Field(None, description="The server's public address, for the links to proofs in "
                                   "Discord and Telegram (over the integrations' own public_url).")
    mirror: Switch = Field(True, description="The server mirrors the game to Discord and Telegram (0, false or no "
                           "stops it).")
    mirror_backoff: float = Field(1.0, description="Seconds the mirror waits after a failed delivery, doubled each "
                                  "time.")
    mirror_lease: float = Field(15.0, description="Seconds one server's mirror holds a chat before another may take "
                                "it over.")
    discord_api: str | None = Field(None, description="The base URL of Discord's API (else its own api_base "
                                    "setting, https://discord.com/api/v10).")
    telegram_api: str | None = Field(None, description="The base URL of Telegram's Bot API (else "
                                     "https://api.telegram.org/bot).")
    # The testing kit
    test_stores: str = Field("memory", description="The stores the tests' `campaign` fixture runs on when no "
                             "--rollbook-stores is given: memory,sqlite,postgres.")
    test_postgres: str = Field("postgresql://postgres@127.0.0.1:5432/test",
                               description="The PostgreSQL the tests use.")
    ci: bool = Field(False, validation_alias=named("CI"),
                     description="Under CI=true a test that needs PostgreSQL fails instead of being skipped.")


def variable_of(field: str) -> str:
    """The environment variable a field is read from: ROLLBOOK_ and its name, or the name it is given whole."""
    alias = Settings.model_fields[field].validation_alias
    return alias.choices[0] if isinstance(alias, AliasChoices) else variable(field)  # type: ignore[return-value]


#: Every variable the model reads.
VARIABLES = tuple(variable_of(name) for name in Settings.model_fields)
