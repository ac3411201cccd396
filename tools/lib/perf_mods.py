#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The profile of an IRDMA_VM_PERF run, module symbols included.

perf resolves a module's samples only when the module was loaded before
the recording started; the guest scripts load irdma and irdma_sim
themselves. This reads `perf script -F comm,ip,sym` output on stdin,
resolves the kernel addresses perf left unknown against the module
symbols in the run's kallsyms, and prints the functions by share of the
samples whose stack holds them (children) and, under one of them, by
share of where the CPU was (self) and by callee.

Usage: perf script -i perf.data --kallsyms=kallsyms -F comm,ip,sym |
       tools/lib/perf_mods.py kallsyms [REGEX [FUNCTION]]
"""

import bisect
import collections
import re
import sys


def module_symbols(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 4 and p[3].startswith('['):
                syms.append((int(p[0], 16), p[2]))
    syms.sort()
    return [a for a, _ in syms], [s for _, s in syms]


def stacks(lines, addrs, names):
    frames = None
    for line in lines:
        if not line.strip():
            if frames:
                yield frames
            frames = None
        elif not line.startswith('\t'):
            frames = []
        elif frames is not None:
            p = line.split()
            sym = p[1] if len(p) > 1 else '?'
            ip = int(p[0], 16)
            if sym == '[unknown]' and ip >= 0xffffffffc0000000:
                i = bisect.bisect_right(addrs, ip) - 1
                if i >= 0:
                    sym = names[i]
            frames.append(sym)
    if frames:
        yield frames


def table(counter, total, pattern=None, limit=40):
    shown = 0
    for sym, n in counter.most_common():
        if pattern and not re.search(pattern, sym):
            continue
        print('%6.2f%%  %s' % (100.0 * n / total, sym))
        shown += 1
        if shown == limit:
            break


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    addrs, names = module_symbols(sys.argv[1])
    pattern = sys.argv[2] if len(sys.argv) > 2 else r'^(isim|irdma)'
    root = sys.argv[3] if len(sys.argv) > 3 else None
    all_stacks = list(stacks(sys.stdin, addrs, names))
    if not all_stacks:
        sys.exit('no samples')
    children = collections.Counter()
    for fr in all_stacks:
        children.update(set(fr))
    print('%d samples; children matching %s:' % (len(all_stacks), pattern))
    table(children, len(all_stacks), pattern)
    if not root:
        return
    under = [fr for fr in all_stacks if root in fr]
    if not under:
        sys.exit('no sample under ' + root)
    print('\n%d samples under %s; self:' % (len(under), root))
    table(collections.Counter(fr[0] for fr in under), len(under))
    callees = collections.Counter(fr[fr.index(root) - 1] for fr in under
                                  if fr.index(root) > 0)
    print('\ncallees of %s:' % root)
    table(callees, len(under), limit=20)


if __name__ == '__main__':
    main()
