#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check that every non-static function defined in the given C files has a
kernel-doc comment naming it right above its definition.

scripts/kernel-doc checks the comments that exist; this checks that they
exist. Prints one line per undocumented function; exits 1 if there is any.
"""
import re
import sys

# A definition starts at column 0 with a return type and the name, and its
# body's opening brace is alone at column 0 a few lines later.
DEF_START = re.compile(r"^(?!static\b)(?!typedef\b)(?:[A-Za-z_][\w\s\*]*?[\s\*])"
                       r"([A-Za-z_]\w*)\s*\(")


def functions(lines):
    for i, line in enumerate(lines):
        m = DEF_START.match(line)
        if not m or line.rstrip().endswith(";"):
            continue
        for j in range(i, min(i + 8, len(lines))):
            if lines[j].rstrip().endswith(";"):
                break
            if lines[j].startswith("{"):
                yield i, m.group(1)
                break


def documented(lines, i, name):
    j = i - 1
    if j < 0 or not lines[j].strip().endswith("*/"):
        return False
    while j >= 0 and not lines[j].lstrip().startswith("/*"):
        j -= 1
    if j < 0 or not lines[j].lstrip().startswith("/**"):
        return False
    head = " ".join(lines[j:j + 2])
    return re.search(r"\b" + re.escape(name) + r"\s*(\(\))?\s*-", head) is not None


def main(paths):
    missing = 0
    for path in paths:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
        for i, name in functions(lines):
            if not documented(lines, i, name):
                print(f"{path}:{i + 1}: non-static function {name}() has no kernel-doc comment")
                missing += 1
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
