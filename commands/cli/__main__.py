"""`python -m rollbook.commands.cli`."""

from . import main

main()
