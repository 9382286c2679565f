"""One module per group of subcommands; each defines ``configure(parser, name)`` and ``run(args) -> int``."""
