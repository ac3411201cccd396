#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Split the guest scripts between the lanes of a test run.

usage: shards.py REPO RUNS ONLY LANES FIRST_LOAD

Prints LANES lines, one per lane, each an extended regular expression
that matches exactly the names of that lane's scripts (or an empty line
for a lane with none). The scripts are those of REPO/tools/tests whose
name matches ONLY (everything when ONLY is empty), as the guest filters
them. Each is weighed by how long it took in the latest earlier test run
under RUNS that ran it (soaks aside; when none did, by the script's own
estimate, a header line "# irdma-vm-secs: N", or else 120 s), and the
heaviest goes to the least loaded lane first. When FIRST_LOAD is not 0, the KUnit guest
boots first in the first lane: that lane starts with the KUnit guest's
wall time in the latest run that measured it (RUNS/*/kunit/secs), or
FIRST_LOAD seconds when none did.
"""
import glob
import os
import re
import sys

DEFAULT_SECS = 120


def durations(runs):
    """Latest recorded duration of each script, by name, from test runs
    (a soak, which marks its run with a file "soak", runs a script for as
    long as it was told and says nothing about a test run's lanes)."""
    secs = {}
    tsvs = [p for p in glob.glob(os.path.join(runs, "*", "e2e*", "e2e.tsv"))
            if not os.path.exists(os.path.join(os.path.dirname(
                os.path.dirname(p)), "soak"))]
    for path in sorted(tsvs, key=os.path.getmtime):
        try:
            with open(path) as f:
                for line in f:
                    cols = line.rstrip("\n").split("\t")
                    if len(cols) == 3 and cols[2].isdigit():
                        secs[cols[0]] = int(cols[2])
        except OSError:
            continue
    return secs


def estimate(repo, name):
    """The script's own estimate of its seconds, or DEFAULT_SECS."""
    try:
        with open(os.path.join(repo, "tools", "tests", name + ".sh")) as f:
            for _, line in zip(range(10), f):
                m = re.match(r"# irdma-vm-secs: (\d+)$", line.strip())
                if m:
                    return int(m.group(1))
    except OSError:
        pass
    return DEFAULT_SECS


def kunit_secs(runs, default):
    """Wall seconds of the latest KUnit guest that recorded them."""
    paths = glob.glob(os.path.join(runs, "*", "kunit", "secs"))
    for path in sorted(paths, key=os.path.getmtime, reverse=True):
        try:
            with open(path) as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit():
            return int(text)
    return default


def ere_escape(name):
    """name as a POSIX extended regular expression matching only itself"""
    return re.sub(r"([.[\]()*+?{}|^$\\])", r"\\\1", name)


def main():
    repo, runs, only, lanes, first = sys.argv[1:6]
    lanes = max(int(lanes), 1)
    names = sorted(os.path.basename(p)[:-3]
                   for p in glob.glob(os.path.join(repo, "tools", "tests", "*.sh")))
    if only:
        names = [n for n in names if re.search(only, n)]
    secs = durations(runs)
    for name in names:
        secs.setdefault(name, estimate(repo, name))
    load = [0] * lanes
    load[0] = kunit_secs(runs, int(first)) if int(first) else 0
    member = [[] for _ in range(lanes)]
    for name in sorted(names, key=lambda n: -secs[n]):
        lane = load.index(min(load))
        member[lane].append(name)
        load[lane] += secs[name]
    for names in member:
        print("^(" + "|".join(ere_escape(n) for n in sorted(names)) + ")$"
              if names else "")


if __name__ == "__main__":
    main()
