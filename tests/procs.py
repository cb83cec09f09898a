"""The process tree, read from Linux's ``/proc``: for tests and benchmarks that check that
no process outlives its command, and for measuring a server's memory with its workers."""

from __future__ import annotations

import os
from pathlib import Path


def stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/PID/stat`` after the command name (state first), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting to be reaped has ended)."""
    fields = stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def descendants(root: int) -> set[int]:
    """Every process below ``root``: its children, theirs, ..."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = stat(int(entry.name))
            if fields is not None:
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def rss(pid: int) -> int:
    """Resident bytes of ``pid`` (0 once it has ended)."""
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def family_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process below it."""
    return sum(rss(pid) for pid in {root, *descendants(root)})
