"""The files a verb reads (a command file, a token file, an export): one refusal, in the reader's language, for
a file that cannot be read."""

from __future__ import annotations

from pathlib import Path
from typing import BinaryIO

from . import N_, fail, gettext

#: The operating system's words for the commonest reasons a file cannot be read (its C library says them in
#: English whatever the reader's language), said from the catalog.
OS_REASONS = (N_("No such file or directory"), N_("Permission denied"), N_("Is a directory"))


def unreadable(file: str, error: OSError) -> str:
    """Why `file` cannot be read, in the reader's language."""
    reason = gettext(error.strerror) if error.strerror in OS_REASONS else error.strerror
    return gettext("cannot read {file}: {error}").format(file=file, error=reason)


def read_file(file: str) -> bytes:
    try:
        return Path(file).read_bytes()
    except OSError as error:
        fail(unreadable(file, error))


def open_file(file: str) -> BinaryIO:
    """A file open for reading in binary, refused as `read_file` refuses it."""
    try:
        return open(file, "rb")
    except OSError as error:
        fail(unreadable(file, error))
