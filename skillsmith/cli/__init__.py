"""The command line: argument parsing, dispatch and output; one module per command."""
