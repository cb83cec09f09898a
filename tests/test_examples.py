"""Every notebook of ``examples/`` runs top to bottom without an error.

Each notebook is executed with nbclient on a kernel of the interpreter running the tests
(so it imports the plies under test), in a scratch copy of ``examples/``: whatever a
notebook writes stays out of the repository.  A cell that raises fails the test with the
cell's source and the error.

The notebooks are committed with their outputs (the docs site shows them unexecuted), and
without execution metadata, so that running them again changes only what the search
itself prints.  ``PLIES_UPDATE_EXAMPLES=1 pytest tests/test_examples.py`` writes the
fresh outputs back into ``examples/`` after a successful run.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

import plies

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))
KERNEL = "plies-tests"
TIMEOUT = 120  # seconds per cell: each notebook runs in well under 30 s


def test_the_four_notebooks_are_there() -> None:
    names = {path.stem for path in NOTEBOOKS}
    assert {"aima-trees", "pacman-expectimax", "chess-horizon", "ggp-match"} <= names


@pytest.fixture
def kernel_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A kernel spec that starts ``sys.executable``, found before any other."""
    import ipykernel  # noqa: F401  (the test group installs it: a missing one fails)
    spec = tmp_path / "jupyter" / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "plies tests", "language": "python"})
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    # The kernel (and any `python -m plies` a notebook starts) imports this plies.
    here = str(Path(plies.__file__).resolve().parents[1])
    given = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    paths = [str(Path(p).resolve()) for p in given if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, *paths]))
    monkeypatch.setenv("JUPYTER_PLATFORM_DIRS", "1")  # no migration warning from jupyter_core
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # no debugger note on stderr
    return tmp_path


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, kernel_home: Path) -> None:
    import nbclient
    import nbformat
    work = kernel_home / "examples"
    shutil.copytree(EXAMPLES, work)
    nb = nbformat.read(work / path.name, as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=TIMEOUT, kernel_name=KERNEL, record_timing=False,
        resources={"metadata": {"path": str(work)}},
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        pytest.fail(f"{path.name}: a cell failed\n{err}", pytrace=False)
    errors = [
        output for cell in nb.cells if cell.cell_type == "code"
        for output in cell.get("outputs", []) if output.get("output_type") == "error"
    ]
    assert not errors, f"{path.name}: {errors}"
    stray = [
        "".join(output.get("text", "")) for cell in nb.cells if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "stream" and output.get("name") == "stderr"
    ]
    assert not stray, f"{path.name} wrote to stderr: {stray}"
    if os.environ.get("PLIES_UPDATE_EXAMPLES"):
        nbformat.write(clean(nb), path)


def clean(nb: Any) -> Any:
    """The notebook without what changes at every run but the outputs: execution
    timing, the kernel's name on this machine, the interpreter's patch version, random
    cell ids; and prints to a stream in one output."""
    nb.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    for number, cell in enumerate(nb.cells):
        cell.id = f"{number:02d}"
        cell.metadata = {}
        if cell.cell_type == "code":
            cell.outputs = coalesce(cell.outputs)
    return nb


def coalesce(outputs: list[Any]) -> list[Any]:
    """Consecutive prints to one stream as one output, as Jupyter shows them (how the kernel
    happened to flush them is noise)."""
    merged: list[Any] = []
    for output in outputs:
        last = merged[-1] if merged else None
        if (
            last is not None and output.output_type == "stream" == last.output_type
            and output.name == last.name
        ):
            last.text += output.text
        else:
            merged.append(output)
    return merged


def test_notebooks_are_committed_clean() -> None:
    """What the site shows: every code cell ran, in order, and no run left metadata."""
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text())
        code = [cell for cell in nb["cells"] if cell["cell_type"] == "code"]
        assert [cell["execution_count"] for cell in code] == list(range(1, len(code) + 1)), path
        assert all(cell["metadata"] == {} for cell in nb["cells"]), path
        assert set(nb["metadata"]) == {"kernelspec", "language_info"}, path


def test_every_notebook_is_listed_on_the_examples_page_and_in_the_readme() -> None:
    page = (EXAMPLES.parent / "docs" / "examples.md").read_text()
    readme = (EXAMPLES / "README.md").read_text()
    for path in NOTEBOOKS:
        assert f"\n_examples/{path.stem}\n" in page, f"docs/examples.md's toctree lacks {path.stem}"
        assert f"]({path.name})" in readme, f"examples/README.md lacks {path.name}"
