#!/usr/bin/env python3
"""plies' GDL validator beside ggp-base's, on every game of the public GGP repository.

    PYTHONPATH=src python benchmarks/gdl_validate_sweep.py [--out FILE.md]
    PYTHONPATH=src python benchmarks/gdl_validate_sweep.py --reference [--prove-seconds 30]

Without ``--reference``: validates every ``.kif`` of the repository mirror (git objects,
read with ``git show``) with :func:`plies.gdl.validator.validate`, compares each verdict
(accept = no error; warnings pass) with ggp-base's, recorded in
``tests/data/gdl/reference_validator.json``, and prints the table: agreements, the
disagreements that the data explains (``disagreements``: file -> reason) and those it
does not.  Exit status 1 when one is unexplained.

With ``--reference`` (and ``--extra DIR`` for test files that are not in this tree yet):
records ggp-base's verdicts again (needs the shared build in
/work/tools/ggp-base and ``javac``): its ``StaticValidator`` (griddle 0.2.2) on every
repository file and on every file under tests/data/gdl, and a seeded random playout by
its ``ProverStateMachine`` of each repository game on which plies warns about
stratification, goal values or capitalization (what "its prover plays" means here).  The
Java runner is benchmarks/ggp_reference/RefValidate.java, compiled into a temporary
directory.  The reasons in ``disagreements`` are kept.

Not part of the test suite (it reads the mirror, and Java); tests/gdl/test_reference.py
checks the files copied into tests/data/gdl against the same data.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "src") not in sys.path:
    sys.path.insert(0, str(ROOT / "src"))

from plies.errors import PliesError  # noqa: E402
from plies.gdl.parser import parse  # noqa: E402
from plies.gdl.validator import validate  # noqa: E402

MIRROR = Path("/work/.mirror/ggp-org+ggp-repository/repo")
GGP_BASE = Path("/work/tools/ggp-base")
GGP_BASE_MIRROR = Path("/work/.mirror/ggp-org+ggp-base/repo")
DATA = ROOT / "tests" / "data" / "gdl"
VERDICTS = DATA / "reference_validator.json"
RUNNER = ROOT / "benchmarks" / "ggp_reference" / "RefValidate.java"
NOTEWORTHY = ("stratification", "goal-value", "capitalization")


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(MIRROR), *args], check=True, capture_output=True, text=True
    ).stdout


def repository_files() -> list[str]:
    return sorted(
        p for p in git("ls-tree", "-r", "HEAD", "--name-only").split() if p.endswith(".kif")
    )


def plies_verdict(text: str, source: str) -> dict[str, Any]:
    """plies' verdict on one description: accept/reject, the first error, warning kinds."""
    try:
        found = validate(parse(text, source=source))
    except PliesError as error:  # not even KIF
        return {"verdict": "reject", "message": str(error), "warnings": []}
    errors = [d for d in found if d.level == "error"]
    warnings = sorted({d.check for d in found if d.level == "warning"})
    if errors:
        return {"verdict": "reject", "message": str(errors[0]), "warnings": warnings}
    return {"verdict": "accept", "warnings": warnings}


def sweep(data: dict[str, Any]) -> tuple[list[tuple[str, dict[str, Any], str]], float]:
    """(path, plies' verdict, reference verdict) for every repository file, and seconds."""
    started = time.process_time()
    rows = []
    for path in repository_files():
        mine = plies_verdict(git("show", f"HEAD:{path}"), path)
        rows.append((path, mine, data["repository"][path]["verdict"]))
    return rows, time.process_time() - started


def report(
    data: dict[str, Any], rows: list[tuple[str, dict[str, Any], str]], seconds: float
) -> tuple[str, int]:
    reasons: dict[str, str] = data.get("disagreements", {})
    counts = Counter((reference, mine["verdict"]) for _, mine, reference in rows)
    unexplained = [
        (path, mine, ref)
        for path, mine, ref in rows
        if mine["verdict"] != ref and path not in reasons
    ]
    stale = [path for path, mine, ref in rows if path in reasons and mine["verdict"] == ref]
    lines = [
        f"{len(rows)} repository files (ggp-org/ggp-repository "
        f"{data['provenance']['repository_commit'][:12]}); "
        f"plies' validator took {seconds:.1f} CPU-s (load {os.getloadavg()[0]:.2f}).",
        "",
        "| ggp-base | plies | files |",
        "|---|---|---:|",
    ]
    for (ref, mine), n in sorted(counts.items()):
        lines.append(f"| {ref} | {mine} | {n} |")
    lines += [
        "",
        "Games on which plies warns about stratification, goal values or capitalization:",
        "",
    ]
    lines += ["| file | ggp-base | plies | warnings | ggp-base's prover |", "|---|---|---|---|---|"]
    for path, mine, ref in rows:
        noted = [w for w in mine.get("warnings", []) if w in NOTEWORTHY]
        if noted or mine["verdict"] != ref:
            proved = data.get("prover", {}).get(path)
            shown = (
                f"{proved['prover']} after {proved['steps']} steps {proved['detail']}"
                if proved
                else ""
            )
            lines.append(f"| {path} | {ref} | {mine['verdict']} | {', '.join(noted)} | {shown} |")
    lines += ["", "Disagreements and their reasons (from the test data):", ""]
    for path, mine, ref in rows:
        if mine["verdict"] != ref:
            lines.append(
                f"- {path}: ggp-base {ref}s, plies {mine['verdict']}s: "
                f"{reasons.get(path, 'UNEXPLAINED')}"
            )
    lines.append(f"\nUnexplained disagreements: {len(unexplained)}; stale reasons: {len(stale)}.")
    return "\n".join(lines), len(unexplained) + len(stale)


# --- recording the reference ---------------------------------------------------------------


def java_classpath(work: Path) -> str:
    classpath = (GGP_BASE / "classpath.txt").read_text().strip()
    classes = work / "classes"
    classes.mkdir()
    subprocess.run(["javac", "-cp", classpath, "-d", str(classes), str(RUNNER)], check=True)
    return f"{classpath}:{classes}"


def run_static(classpath: str, root: Path, files: list[Path]) -> dict[str, Any]:
    out = subprocess.run(
        ["java", "-cp", classpath, "RefValidate", "static", str(root), *map(str, files)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    verdicts = {}
    for line in out.splitlines():
        entry = json.loads(line)
        if "message" in entry:  # griddle repeats a problem once per occurrence
            unique = list(dict.fromkeys(m for m in entry["message"].splitlines() if m))
            entry["message"] = " | ".join(unique)[:400]
        path = entry.pop("path")
        # The file's hash: a test finds the verdict of an unchanged copy under any name.
        entry["sha256"] = hashlib.sha256((root / path).read_bytes()).hexdigest()
        verdicts[path] = entry
    return verdicts


def dump(data: dict[str, Any]) -> str:
    """The data as JSON with one line per file: a diff shows which verdicts changed."""
    parts = []
    for key, value in data.items():
        inner = ",\n".join(f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in value.items())
        parts.append(
            f" {json.dumps(key)}: {{\n{inner}\n }}" if value else f" {json.dumps(key)}: {{}}"
        )
    return "{\n" + ",\n".join(parts) + "\n}\n"


def run_prover(classpath: str, file: Path, seconds: float) -> dict[str, Any]:
    try:
        out = subprocess.run(
            ["java", "-cp", classpath, "RefValidate", "prove", str(file), str(seconds), "200", "1"],
            check=True,
            capture_output=True,
            text=True,
            timeout=seconds + 60,
        ).stdout
    except subprocess.TimeoutExpired:  # one prover query that never came back
        return {"prover": "timeout", "steps": 0, "detail": f"no answer in {seconds + 60:.0f} s"}
    entry: dict[str, Any] = json.loads(out)
    entry.pop("path")
    return entry


def record(prove_seconds: float, extra: Path | None) -> None:
    old = json.loads(VERDICTS.read_text()) if VERDICTS.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        classpath = java_classpath(work)
        copies = []
        for path in repository_files():
            copy = work / "repo" / path
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(git("show", f"HEAD:{path}"))
            copies.append(copy)
        repository = run_static(classpath, work / "repo", copies)
        local = run_static(classpath, DATA, sorted(DATA.glob("**/*.kif")))
        # Files another branch adds to tests/data/gdl (--extra: a directory laid out the
        # same way), and those recorded before and absent here, keep a verdict.
        if extra is not None:
            local.update(run_static(classpath, extra, sorted(extra.glob("**/*.kif"))))
        for path, entry in old.get("local", {}).items():
            local.setdefault(path, entry)
        local = dict(sorted(local.items()))
        prover = {}
        for copy in copies:
            path = copy.relative_to(work / "repo").as_posix()
            mine = plies_verdict(copy.read_text(), path)
            if (
                set(mine.get("warnings", ())) & set(NOTEWORTHY)
                or mine["verdict"] != repository[path]["verdict"]
            ):
                prover[path] = run_prover(classpath, copy, prove_seconds)
                print(path, prover[path], file=sys.stderr)
    short = (GGP_BASE / "README.txt").read_text().split("commit ")[1].split(",")[0]
    ggp_base = subprocess.run(
        ["git", "-C", str(GGP_BASE_MIRROR), "rev-parse", short],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    data = {
        "provenance": {
            "tool": "ggp-base StaticValidator (griddle gdl-validation 0.2.2) and "
            "ProverStateMachine, run by benchmarks/ggp_reference/RefValidate.java",
            "ggp_base_commit": ggp_base,
            "repository": "https://github.com/ggp-org/ggp-repository",
            "repository_commit": git("rev-parse", "HEAD").strip(),
            "command": "PYTHONPATH=src python benchmarks/gdl_validate_sweep.py --reference "
            f"--prove-seconds {prove_seconds:g}",
            "recorded": time.strftime("%Y-%m-%d", time.gmtime()),
            "prover_playout": f"seed 1, uniformly random joint moves, at most 200 steps and "
            f"{prove_seconds:g} s; 'terminal' gives the goals, 'unfinished' the steps played",
        },
        "disagreements": old.get("disagreements", {}),
        "repository": repository,
        "local": local,
        "prover": prover,
    }
    VERDICTS.write_text(dump(data))
    print(
        f"wrote {VERDICTS}: {len(repository)} repository files, {len(local)} local, "
        f"{len(prover)} prover playouts"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference", action="store_true", help="record ggp-base's verdicts")
    parser.add_argument("--prove-seconds", type=float, default=30.0)
    parser.add_argument(
        "--extra", type=Path, help="with --reference: also record the .kif files under this "
        "directory, named relative to it, as files of tests/data/gdl",
    )
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    if args.reference:
        record(args.prove_seconds, args.extra)
        return 0
    data = json.loads(VERDICTS.read_text())
    rows, seconds = sweep(data)
    text, bad = report(data, rows, seconds)
    print(text)
    if args.out:
        command = "PYTHONPATH=src python benchmarks/gdl_validate_sweep.py --out " + str(args.out)
        args.out.write_text(f"# plies' GDL validator beside ggp-base's\n\n`{command}`\n\n{text}\n")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
