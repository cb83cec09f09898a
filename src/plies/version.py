"""The version of plies (also ``plies.__version__``), for ``plies --version`` and records.

It is written once, in ``pyproject.toml``, and read here from the installed distribution's
metadata.  A source tree run without installing (``PYTHONPATH=src``) has no metadata: its
version is ``"0+unknown"``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("plies")
except PackageNotFoundError:  # pragma: no cover - plies run from a source tree not installed
    __version__ = "0+unknown"
