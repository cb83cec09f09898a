"""plies' own Sphinx extension: what the site needs that no package gives.

- A link from a page to a file of the repository outside ``docs/`` (``../CONTRIBUTING.md``,
  ``../benchmarks/results/web_load.md``) is the same relative link that works on a code
  host; on the site it becomes a download of that file, so it is checked (a missing file
  is a warning) and never a dead link.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx


def repository_links(app: Sphinx, doctree: nodes.document) -> None:
    """Turn MyST links to Markdown files outside the source directory into downloads."""
    env = app.env
    srcdir = Path(app.srcdir)
    here = Path(env.doc2path(env.docname)).parent
    for node in list(doctree.findall(addnodes.pending_xref)):
        if node.get("refdomain") != "doc" or node.get("reftype") != "myst":
            continue
        target = str(node["reftarget"])
        if target in env.found_docs or not os.path.isabs(target):
            continue
        path = Path(target + ".md")
        if not path.is_file() or srcdir in path.parents:
            continue
        download = addnodes.download_reference(
            refdomain=None,
            reftype="myst",
            refdoc=env.docname,
            refexplicit=True,
            reftarget=os.path.relpath(path, here),
        )
        download["classes"] = ["xref", "download", "myst"]
        download.extend(node.children)
        node.replace_self(download)


def setup(app: Sphinx) -> dict[str, Any]:
    # Before Sphinx's own collector (priority 500) gathers the downloads of the page.
    app.connect("doctree-read", repository_links, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
