"""One module per ``motiond`` subcommand (see ``motiond.cli``)."""
