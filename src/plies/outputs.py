"""Writing files so that a failure loses nothing.

Every file plies writes (``learn --out``, ``tree -o``, ``ggp match --json``,
``tournament --plot``, :func:`plies.linear.save_weights`) goes through this module:

- :func:`check_target` looks at the target BEFORE any work, so a command that would fail
  to write its result fails at once, in one line, not after minutes of self-play or a
  whole match.  It refuses a directory, a missing directory, a directory plies cannot
  write in, and what is not a regular file (a FIFO, a device, a socket); it asks before
  replacing a file that is not plies' own output (below).
- :func:`replacing` (and :func:`write_text`, :func:`write_bytes`) writes to a temporary
  file beside the target (``.NAME.XXXX.part``), flushes and ``fsync``\\ s it, then renames
  it over the target (an atomic step on POSIX file systems) and syncs the directory.  A
  full disk, a size limit, an error of the writer or Ctrl-C in the middle removes the
  temporary file and leaves the target as it was: the old file whole, or no file.

Plies' own output.  A command replaces without asking a file that the same command
wrote, recognised by a *signature* in the file's first 4 KiB: each writer names its
signatures (``"format": "plies-weights"`` for weights, ``"judge": "plies ggp match"`` for
a match record, ...).  An empty file holds nothing to lose and is replaced too.  Any
other existing file, a write-protected one (no ``w`` bit), or a symbolic link is replaced
only with ``force`` (the commands' ``--force``), or when the user answers ``y`` to a
prompt, which is asked only when stdin and stderr are both a terminal; otherwise the
command stops with one line saying to give ``--force``.

Symbolic links.  A link is never followed silently: without ``force`` (or a ``y``) it is
refused.  With it, the file the link points to is replaced (the temporary file is made
beside that file) and the link is kept, as an editor saving through a link does.

This module is layer 0: it imports nothing of plies but the errors.

>>> import os, tempfile
>>> folder = tempfile.mkdtemp()
>>> path = check_target(os.path.join(folder, "out.txt"), option="-o", kind="a test file")
>>> write_text(path, "hello\\n")
>>> path.read_text()
'hello\\n'
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Final

from plies.errors import OutputFileError, quoted

HEAD_BYTES: Final = 4096
"""How much of an existing file is read to recognise plies' own output."""

Ask = Callable[[str], bool]
"""A yes/no question to the user (True: yes)."""


# --- before the work ----------------------------------------------------------------------


def check_target(
    path: str | os.PathLike[str],
    *,
    option: str,
    kind: str,
    signatures: Sequence[bytes] = (),
    force: bool = False,
    ask: Ask | None = None,
) -> Path:
    """The path to write ``path``'s output to, checked before any work is done.

    ``option`` names the argument in messages (``--out``); ``kind`` what the command
    writes (``"a plies weights file"``); ``signatures`` are byte strings one of which is
    in the first :data:`HEAD_BYTES` of every file of that kind (see the module docstring).
    ``force`` replaces any regular file and follows a symbolic link; otherwise ``ask``
    (default: a y/N prompt on a terminal, none elsewhere) decides. Returns the file to
    replace: ``path``, or the file a symbolic link points to.

    Raises:
        OutputFileError: the target is a directory, not a regular file, in a missing or
            unwritable directory, or a file that may not be replaced; one line.
    """
    text = os.fspath(path)
    where = f"{option} {quoted(text, 80)}"
    if not text:
        raise OutputFileError(f"{option}: an empty file name; give the file to write")
    target = Path(text)
    try:
        info = os.lstat(target)
    except (FileNotFoundError, NotADirectoryError):
        _check_directory(target, where)
        return target
    except OSError as err:
        raise OutputFileError(f"cannot write {where}: {_reason(err)}") from None
    if stat.S_ISLNK(info.st_mode):
        points = os.readlink(target)
        if not (force or _confirm(ask, f"{text} is a symbolic link to {points}; replace "
                                       f"the file it points to?")):
            raise OutputFileError(
                f"{where} is a symbolic link (to {quoted(points, 80)}); give --force to "
                "replace the file it points to"
            )
        real = Path(os.path.realpath(target))
        try:
            info = os.stat(real)
        except FileNotFoundError:
            _check_directory(real, where)
            return real
        except OSError as err:
            raise OutputFileError(f"cannot write {where}: {_reason(err)}") from None
        _check_file(real, info, where)
        _check_directory(real, where)
        return real
    _check_file(target, info, where)
    _check_directory(target, where)
    if force or info.st_size == 0:
        return target
    protected = not info.st_mode & 0o222 or not os.access(target, os.W_OK)
    ours = any(mark in _head(target) for mark in signatures)
    if ours and not protected:
        return target
    why = "is write-protected" if protected else f"exists and is not {kind}"
    if _confirm(ask, f"{text} {why}; replace it?"):
        return target
    raise OutputFileError(f"{where} {why}; give --force to replace it")


def _check_file(target: Path, info: os.stat_result, where: str) -> None:
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise OutputFileError(f"{where} is a directory; give the name of a file to write")
    if not stat.S_ISREG(mode):
        raise OutputFileError(
            f"{where} is {_what(mode)}, not a regular file; give the name of a file to write"
        )


def _check_directory(target: Path, where: str) -> None:
    """The directory of ``target`` exists and plies can create files in it (tried)."""
    folder = target.parent
    try:
        info = os.stat(folder)
    except (FileNotFoundError, NotADirectoryError):
        raise OutputFileError(f"cannot write {where}: no directory {quoted(str(folder), 80)}"
                              ) from None
    except OSError as err:
        raise OutputFileError(f"cannot write {where}: {_reason(err)}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise OutputFileError(
            f"cannot write {where}: {quoted(str(folder), 80)} is not a directory"
        )
    try:  # the one sure test of "can create a file here" (permissions, read-only mounts)
        fd, probe = tempfile.mkstemp(prefix=".plies-", suffix=".probe", dir=folder)
    except OSError as err:
        raise OutputFileError(
            f"cannot write {where}: cannot create a file in {quoted(str(folder), 80)} "
            f"({_reason(err)})"
        ) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def _head(target: Path) -> bytes:
    try:
        with open(target, "rb") as file:
            return file.read(HEAD_BYTES)
    except OSError:
        return b""


def _what(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _confirm(ask: Ask | None, question: str) -> bool:
    if ask is None:
        ask = ask_on_terminal
    return ask(question)


def ask_on_terminal(question: str) -> bool:
    """Ask ``question`` on stderr and read y/N from stdin, when both are a terminal;
    False (do not replace) anywhere else, and on an empty answer or end of input."""
    try:
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            return False
    except (AttributeError, ValueError):  # closed or replaced streams
        return False
    print(f"plies: {question} [y/N] ", end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline(100)
    return answer.strip().lower() in ("y", "yes")


# --- the write ------------------------------------------------------------------------------


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, label: str = "") -> Iterator[IO[bytes]]:
    """A binary file whose content replaces ``path`` when the block ends without error.

    The data goes to a temporary file beside ``path`` (beside the file a symbolic link
    points to), is flushed and ``fsync``\\ ed, gets the mode of the file it replaces (or
    the umask's for a new file), and is renamed over ``path``.  If the block or the write
    fails, or is interrupted, the temporary file is removed and ``path`` is as it was.
    ``label`` names the output in the message (``--out``).

    Raises:
        OutputFileError: the file could not be written (a full disk: "No space left on
            device"); the message says that the existing file is unchanged.
    """
    target = Path(os.path.realpath(path))
    shown = f"{label} {quoted(os.fspath(path), 80)}" if label else quoted(os.fspath(path), 80)
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mode = None
    kept = "the existing file is unchanged" if mode is not None else "nothing was written"
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{target.name[:80]}.", suffix=".part",
                                    dir=target.parent)
    except OSError as err:
        raise OutputFileError(f"cannot write {shown}: {_reason(err)}; {kept}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            yield file
            file.flush()
            os.fchmod(file.fileno(), mode if mode is not None else 0o666 & ~_umask())
            os.fsync(file.fileno())
        os.replace(temp, target)
    except OSError as err:
        _remove(temp)
        raise OutputFileError(f"cannot write {shown}: {_reason(err)}; {kept}") from None
    except BaseException:
        _remove(temp)
        raise
    _sync_directory(target.parent)


def write_bytes(path: str | os.PathLike[str], data: bytes, *, label: str = "") -> None:
    """Replace ``path`` with ``data``, atomically (:func:`replacing`)."""
    with replacing(path, label=label) as file:
        file.write(data)


def write_text(path: str | os.PathLike[str], text: str, *, label: str = "") -> None:
    """Replace ``path`` with ``text`` in UTF-8, atomically (:func:`replacing`)."""
    write_bytes(path, text.encode("utf-8"), label=label)


def _remove(temp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(temp)


def _sync_directory(folder: Path) -> None:
    """Make the rename durable; not every system can open a directory (best effort)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    try:  # Linux says it without changing it
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def _reason(err: OSError) -> str:
    return err.strerror or str(err) or type(err).__name__
