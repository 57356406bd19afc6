"""``python -m gridarena``."""

from gridarena.cli.main import entry

entry()
