"""``python -m plies.cli`` runs the ``plies`` command (as ``python -m plies`` does)."""

from plies.cli.main import run

run()
