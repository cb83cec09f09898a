"""plies' own Sphinx extension: what the site needs that no package gives.

- ``{plies-cli}``: the reference of every ``plies`` command, written from the parser at
  build time (:mod:`reference_data`), so it cannot go stale: each command's usage, description
  and every option (``.. option::``, so ``{option}`` links reach it).
- ``{plies-hooks}``: the table of the game model's members and hooks, read from the
  :class:`plies.Game` docstring, the one place it is written.
- ``{plies-web-api}``: every endpoint of the web app's JSON API, with its docstring, an
  example request (the directive's content: a line ``NAME {json}`` per endpoint) and
  the answer plies gives to it, computed at build time.  An endpoint of the registry
  without an example, or an example of no endpoint, is an error.
- The notebooks of ``examples/`` are copied to ``docs/_examples/`` when a build starts
  (``docs/examples.md`` lists them), and myst-nb shows them with the outputs they were
  saved with: the test suite executes them, the site does not.
- A link from a page to a file of the repository outside ``docs/`` (``../CONTRIBUTING.md``,
  ``../benchmarks/results/web_load.md``) is the same relative link that works on a code
  host; on the site it becomes a download of that file, so it is checked (a missing file
  is a warning) and never a dead link.
- A reference in a docstring to a name of plies by another path than the one it is
  documented under (``plies.search.common.SearchResult`` for :class:`plies.SearchResult`,
  ``Game`` inside :mod:`plies.game`) links to where the object is documented: the name is
  imported, and the documented name of the same object is found.  A name that exists but
  is not documented on its own links to its module's entry; a name that does not import
  stays a warning (a typo).  Type variables are shown as text; names of the standard
  library link to docs.python.org.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import re
import sys
import typing
from pathlib import Path
from typing import Any

import reference_data
from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import make_refnode, nested_parse_with_titles


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


# --- references by any path ---------------------------------------------------------------

_MISSING = object()


def import_path(path: str) -> Any:
    """The object ``path`` names (``package.module.Class.attr``), or :data:`_MISSING`."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        except Exception:  # a module that cannot be imported here: not a target
            return _MISSING
        for name in parts[cut:]:
            obj = getattr(obj, name, _MISSING)
            if obj is _MISSING:
                return _MISSING
        return obj
    return _MISSING


_IDENTITIES: dict[int, tuple[int, dict[int, str], list[Any]]] = {}
"""Per build environment (by id): the number of objects it had, and the map made from
them, with the objects it keeps alive (ids are only unique among living objects).  Kept
here, not on the environment, which Sphinx pickles."""


def _identity_map(env: BuildEnvironment) -> dict[int, str]:
    """id(object) -> the name it is documented under, for modules, classes and functions
    (plain values are not told apart by identity: -1 is every -1)."""
    objects = env.get_domain("py").objects
    cached = _IDENTITIES.get(id(env))
    if cached is not None and cached[0] == len(objects):
        return cached[1]
    found: dict[int, str] = {}
    keep: list[Any] = []
    for name in sorted(objects, key=lambda n: (n.count("."), n)):  # the shortest wins
        if objects[name].aliased:
            continue
        obj = import_path(name)
        if inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isroutine(obj):
            found.setdefault(id(obj), name)
            keep.append(obj)
    _IDENTITIES[id(env)] = (len(objects), found, keep)
    return found


def _candidates(node: Any) -> list[str]:
    """The names ``node``'s target may mean, from the most to the least specific: in the
    documented class and module, then in the modules that define them."""
    target = str(node["reftarget"]).lstrip(".~")
    module, cls = node.get("py:module"), node.get("py:class")
    names = [target]
    if module:
        if cls:
            names.append(f"{module}.{cls}.{target}")
        names.append(f"{module}.{target}")
        context = import_path(f"{module}.{cls}" if cls else module)
        home = getattr(context, "__module__", None) if inspect.isclass(context) else None
        if home:
            names.append(f"{home}.{target}")
    # The object whose docstring holds the reference, and the modules around it.
    holder = node
    while holder is not None and not holder.source:
        holder = holder.parent
    source = re.search(r"docstring of ([\w.]+)", str(getattr(holder, "source", "") or ""))
    if source:
        prefix = source[1]
        while "." in prefix:
            prefix = prefix.rpartition(".")[0]
            names.append(f"{prefix}.{target}")
    return names


# Third-party documentation, for the few names of other packages plies' docstrings use.
EXTERNAL = {"rich": "https://rich.readthedocs.io/en/stable/reference/{tail}.html#{name}"}


def resolve_any_path(
    app: Sphinx, env: BuildEnvironment, node: Any, contnode: nodes.Element
) -> nodes.Element | None:
    """Resolve a Python reference that Sphinx did not find (see the module docstring)."""
    if node.get("refdomain") != "py":
        return None
    objects = env.get_domain("py").objects
    identities = _identity_map(env)

    def link(name: str) -> nodes.Element:
        entry = objects[name]
        return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id,
                            contnode, name)

    for name in _candidates(node):
        root = name.split(".")[0]
        if (root in sys.stdlib_module_names or root in EXTERNAL) and "." in name:
            module = name.rsplit(".", 1)[0]
            if import_path(name) is not _MISSING:
                pattern = EXTERNAL.get(root, "https://docs.python.org/3/library/{module}.html#{name}")
                uri = pattern.format(module=module, name=name, tail=module.split(".", 1)[-1])
                reference = nodes.reference("", "", internal=False, refuri=uri)
                reference += contnode
                return reference
        obj = import_path(name)
        parent, _, last = name.rpartition(".")
        if obj is _MISSING:
            owner = identities.get(id(import_path(parent))) if parent else None
            if owner is not None and node.get("reftype") in ("attr", "meth"):
                return link(owner)  # an attribute set in __init__: its class's entry
            continue
        if isinstance(obj, typing.TypeVar):
            return contnode
        documented = identities.get(id(obj))
        if documented is not None and (
            inspect.ismodule(obj) or inspect.isclass(obj) or inspect.isroutine(obj)
        ):
            return link(documented)
        owner = identities.get(id(import_path(parent))) if parent else None
        if owner is not None and f"{owner}.{last}" in objects:
            return link(f"{owner}.{last}")
        # Not documented on its own: its module's entry, the closest documented place.
        module_name = getattr(obj, "__module__", None) if not inspect.ismodule(obj) else None
        for candidate in (module_name, parent):
            while candidate:
                if candidate in objects and objects[candidate].objtype == "module":
                    return link(candidate)
                candidate = candidate.rpartition(".")[0]
    target = str(node["reftarget"]).lstrip(".~")
    if "." not in target:
        # A bare name from a module that does not import it (a docstring naming a
        # neighbour): the one documented object of that name, or a type variable.
        matches = [name for name in objects if name.endswith("." + target)]
        if len(matches) == 1:
            return link(matches[0])
        found = {}
        for module in [m for n, m in sys.modules.items() if n.startswith("plies.")]:
            obj = getattr(module, target, None)
            if isinstance(obj, typing.TypeVar):
                return contnode
            if inspect.isclass(obj) or inspect.isroutine(obj):
                found[id(obj)] = obj
        if len(found) == 1:  # one object of plies has that name
            (obj,) = found.values()
            if id(obj) in identities:
                return link(identities[id(obj)])
            module_name = obj.__module__
            while module_name:
                if module_name in objects and objects[module_name].objtype == "module":
                    return link(module_name)
                module_name = module_name.rpartition(".")[0]
    return None


def attribute_docstrings_as_written(app: Sphinx) -> None:
    """Napoleon reads an attribute's docstring ``"Every command by name: ..."`` as
    ``type: description``; plies' attribute docstrings are prose, so napoleon is kept
    for functions and classes (their ``Args:`` and ``Raises:``) only."""
    from sphinx.ext import napoleon

    listeners = app.events.listeners.get("autodoc-process-docstring", [])
    for listener in list(listeners):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)

            def process(app: Sphinx, what: str, *args: Any) -> None:
                if what not in ("attribute", "data", "property"):
                    napoleon._process_docstring(app, what, *args)

            app.connect("autodoc-process-docstring", process, priority=listener.priority)


# --- the CLI reference --------------------------------------------------------------------


def md_text(text: str) -> str:
    """``text`` as literal Markdown prose: every punctuation mark that could be markup
    escaped (CommonMark allows a backslash before any of them)."""
    return "".join("\\" + ch if ch in "\\*_`[]<>|#{}$~!" else ch for ch in text)


def _fence(directive: str, argument: str, body: list[str]) -> list[str]:
    return [f"````{{{directive}}} {argument}".rstrip(), *body, "````", ""]


def _option_lines(option: reference_data.Option) -> list[str]:
    if option.positional:
        signature = option.names[0]
    else:
        signature = ", ".join(
            name if option.metavar is None else f"{name} {option.metavar}"
            for name in option.names
        )
    body = md_text(option.help or "")
    if option.choices:
        body += ". Choices: " + ", ".join(f"`{c}`" for c in option.choices)
    if (
        not option.positional
        and option.metavar is not None
        and option.default not in (None, [], "", False)
        and "default" not in (option.help or "")
    ):
        body += f". Default: `{option.default}`"
    if option.required and not option.positional:
        body += ". Required"
    return _fence("option", signature, [body.strip() + ("." if body else "")])


def command_md(command: reference_data.Command, level: int) -> list[str]:
    """MyST Markdown for ``command`` and its sub-commands: a section each."""
    lines = [f"{'#' * level} `{command.name}`", ""]
    lines += _fence("program", command.name, [])
    texts = [command.summary, command.description]
    for text in dict.fromkeys(t for t in texts if t):  # a description may repeat the summary
        lines += [md_text(text[0].upper() + text[1:]), ""]
    lines += ["```text", *command.usage.splitlines(), "```", ""]
    if command.epilog:
        lines += [md_text(command.epilog), ""]
    for option in command.options:
        lines += _option_lines(option)
    for sub in command.commands:
        lines += command_md(sub, level + 1)
    return lines


class PliesCli(SphinxDirective):
    """``{plies-cli}``: every command of ``plies`` (see :func:`reference_data.plies_command`),
    as Markdown sections under the page's title."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        root = reference_data.plies_command()
        commands, root.commands = root.commands, []
        lines = command_md(root, 2)
        for sub in commands:
            lines += command_md(sub, 2)
        container = nodes.section()
        nested_parse_with_titles(self.state, StringList(lines, "plies-cli"), container)
        return container.children


# --- the table of hooks --------------------------------------------------------------------

_ROLE = re.compile(r":(\w+):`([^`]+)`")


def rst_to_md(text: str) -> str:
    """A table cell of a docstring (reST) as MyST: ``code`` and :role:`target`."""
    text = _ROLE.sub(lambda m: f"{{py:{m[1]}}}`{m[2]}`", text)
    return text.replace("``", "`").replace("|", "\\|")


class PliesHooks(SphinxDirective):
    """``{plies-hooks}``: the members of the game model, a table row each, read from
    :class:`plies.Game`'s docstring (:func:`reference_data.game_members`)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        lines = [
            "| member | kind | signature | default: what leaving it out means |",
            "|---|---|---|---|",
        ]
        for member in reference_data.game_members():
            signature = member.signature.replace("|", "\\|")
            lines.append(
                f"| `{member.name}` | {member.kind} | `{signature}` | "
                f"{rst_to_md(member.default)} |"
            )
        container = nodes.section()
        self.state.nested_parse(StringList(lines, "plies-hooks"), 0, container)
        return container.children


# --- the web API ----------------------------------------------------------------------------


class PliesWebApi(SphinxDirective):
    """``{plies-web-api}``: a section per endpoint of :data:`plies.web.api.ENDPOINTS`."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        examples: dict[str, dict[str, Any]] = {}
        for line in self.content:
            if line.strip():
                name, _, body = line.strip().partition(" ")
                examples[name] = json.loads(body or "{}")
        registered = ["games", *reference_data.endpoints()]
        missing = [name for name in registered if name not in examples]
        unknown = [name for name in examples if name not in registered]
        if missing or unknown:
            raise self.error(
                f"plies-web-api: endpoints without an example: {missing}; examples of no "
                f"endpoint: {unknown}"
            )
        lines: list[str] = []
        for name in registered:
            function = reference_data.answerer(name)
            method = "GET" if name == "games" else "POST"
            lines += [f"## `{method} /api/{name}`", ""]
            lines += ["```{eval-rst}", f".. autofunction:: {function.__module__}."
                      f"{function.__name__}", "   :no-index:", "```", ""]
            if method == "POST":
                lines += ["A request:", "", "```json", json.dumps(examples[name]), "```", ""]
            lines += ["The answer (computed when this page was built, shortened):", ""]
            lines += ["```json", reference_data.example_answer(name, examples[name]), "```", ""]
        container = nodes.section()
        nested_parse_with_titles(self.state, StringList(lines, "plies-web-api"), container)
        return container.children


# --- the notebooks --------------------------------------------------------------------------


def copy_notebooks(app: Sphinx, config: Any) -> None:
    """``examples/*.ipynb`` into ``docs/_examples/``, the copies of removed ones deleted."""
    source = Path(app.srcdir).parent / "examples"
    target = Path(app.srcdir) / "_examples"
    notebooks = {path.name: path for path in sorted(source.glob("*.ipynb"))}
    if not notebooks and not target.exists():
        return
    target.mkdir(exist_ok=True)
    for stale in target.glob("*.ipynb"):
        if stale.name not in notebooks:
            stale.unlink()
    for name, path in notebooks.items():
        data = path.read_bytes()
        copy = target / name
        if not copy.exists() or copy.read_bytes() != data:  # unchanged: no rebuild
            copy.write_bytes(data)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("config-inited", copy_notebooks)
    app.add_directive("plies-web-api", PliesWebApi)
    app.add_directive("plies-hooks", PliesHooks)
    app.add_directive("plies-cli", PliesCli)
    app.connect("missing-reference", resolve_any_path)
    app.connect("builder-inited", attribute_docstrings_as_written)
    # Before Sphinx's own collector (priority 500) gathers the downloads of the page.
    app.connect("doctree-read", repository_links, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
