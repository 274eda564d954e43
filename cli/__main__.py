"""`python -m rollbook.cli`."""

from . import main

main()
