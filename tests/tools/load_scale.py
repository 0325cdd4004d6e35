# SPDX-License-Identifier: GPL-3.0-or-later
# tests/tools/load_scale.py: the time limits of the Python checkers
# (Chromium over CDP, speedscope, dot) scaled with the machine's load, as
# timeout_scale in tests/lib.sh scales the shell's: 1 + the load average
# per core, rounded down, times GPROFTK_TIMEOUT_SCALE when that is set.
# A limit is there to catch a hang, never to fail a slow machine.
import os


def scale():
    try:
        with open("/proc/loadavg") as f:
            load = float(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        load = 0.0
    factor = 1 + int(load / (os.cpu_count() or 1))
    try:
        extra = int(os.environ.get("GPROFTK_TIMEOUT_SCALE", "1"))
    except ValueError:
        extra = 1
    return factor * max(extra, 1)


def seconds(quiet):
    """A limit of QUIET seconds on a quiet machine, scaled for now."""
    return quiet * scale()
