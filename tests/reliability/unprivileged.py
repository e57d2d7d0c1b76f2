"""Child processes that obey file permission bits even when the tests run as root.

Root ignores chmod: a 0444 file stays writable and a 0000 file readable, so a read-only
database can't be tested by chmod alone. A child started with `preexec_fn=obey_permissions`
has lost the capabilities behind that (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) from
its bounding set, so it keeps them lost through exec: it is still uid 0 and still reaches the
interpreter under /root, but the permission bits of the test's files now apply to it.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from collections.abc import Callable

PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER = 1, 2, 3


def _drop_overrides() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def obey_permissions() -> Callable[[], None] | None:
    """The `preexec_fn` for a child that must obey permission bits (None when not root)."""
    return _drop_overrides if os.geteuid() == 0 else None


def permissions_apply(path: str) -> bool:
    """True if a child started as above is refused writing to `path` (a 0444 file): the
    check that the tests which rely on it really exercise a read-only file."""
    probe = f"import os, sys; sys.exit(0 if os.access({path!r}, os.W_OK) else 3)"
    done = subprocess.run([sys.executable, "-c", probe], preexec_fn=obey_permissions())
    return done.returncode == 3
