"""`python -m jobs.cli`: the `interview` command."""

from jobs.cli import main

main()
