"""Sphinx configuration of the plies documentation site (``make docs``).

Sphinx, because autodoc reads plies' docstrings as they are written (reST, with Google
``Args:``/``Raises:`` sections through napoleon) and nitpicky mode checks that every
cross-reference resolves; MyST keeps the pages Markdown, which a code host shows and
``tests/test_docs.py`` runs; myst-nb shows the notebooks of ``examples/``; Furo is the
theme.  The generated pages (the CLI reference, the table of hooks, the web API's
examples) come from ``_ext/plies_docs.py``.  Build with warnings as errors and nitpicky
references: ``sphinx-build -W --keep-going -n -b html docs build/docs``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
REPO = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(REPO / "src"))

import plies.plugins  # noqa: E402
from plies import __version__  # noqa: E402

# The site documents plies as it is distributed: the registries (the CLI's commands and
# --algorithm choices, above all) leave out the plug-ins of the environment that builds
# it (the test suite's own plug-in, in a development environment).
_declared_entries = plies.plugins.declared_entries


def _plies_entries_only(group: str) -> tuple[plies.plugins.Entry, ...]:
    return tuple(e for e in _declared_entries(group) if e.distribution == "plies")


plies.plugins.declared_entries = _plies_entries_only
plies.plugins.refresh()

project = "plies"
author = "the plies authors"
copyright = "the plies authors, MIT license"
release = __version__
version = __version__

extensions = [
    "myst_nb",  # Markdown pages (it brings myst-parser) and notebooks, shown unexecuted
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx_copybutton",
    "plies_docs",  # _ext/plies_docs.py
]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "images/*.dot", "**/README.md", "**/.ipynb_checkpoints"]

# "--depth" stays two hyphens and quotes stay straight: pages are full of command lines.
smartquotes = False

# --- MyST ---------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# Pages written as sections of a longer text start at ## or ###: the level is cosmetic.
suppress_warnings = ["myst.header"]
myst_all_links_external = False  # a broken [x](page.md) is a warning, so an error
nb_execution_mode = "off"  # the test suite executes the notebooks; the site shows them

# --- the API reference --------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

# --- HTML ---------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"plies {__version__}"
html_static_path: list[str] = []
copybutton_prompt_text = r"\$ |>>> |\.\.\. "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
