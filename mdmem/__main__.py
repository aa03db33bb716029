"""`python -m mdmem` runs the command line."""

from mdmem.cli import main

main()
