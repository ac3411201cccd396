#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Hold the README to one page and Documentation/ to a few thousand words.

usage: doc_limits.py REPO

Words are counted as wc -w counts them (runs of non-blank characters).
Fails, naming what is over, when README.md has more than README_WORDS
words, when a cell of a README table (a line that starts with "|") has
more than CELL_WORDS, or when Documentation/*.rst together have more
than RST_WORDS. Prints the counts either way.

When REPO is a git checkout, every file git tracks must also be named in
the first column of the README's layout table: by its path, by a glob
(tools/guest/partial_*.py) or by a folder (tools/tests/).
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys

README_WORDS = 1500
CELL_WORDS = 30
RST_WORDS = 9000


def words(text):
    return len(text.split())


def table_cells(lines):
    """(line number, cell text) of every cell of every markdown table"""
    for n, line in enumerate(lines, 1):
        if not line.lstrip().startswith("|"):
            continue
        # a cell may hold an escaped bar
        for cell in re.split(r"(?<!\\)\|", line.strip().strip("|")):
            yield n, cell.strip()


def layout_names(readme):
    """the paths, globs and folders the layout table's first column names"""
    names = set()
    start = readme.find("## Layout")
    end = readme.find("\n## ", start + 1)
    for line in readme[start:end].splitlines():
        if line.startswith("|"):
            names |= set(re.findall(r"`([^`]+)`", line.split("|")[1]))
    return names


def unlisted(repo, readme):
    """tracked files the layout table does not name, or None without git"""
    try:
        files = subprocess.run(["git", "-C", repo, "ls-files"], check=True,
                               capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return None
    names = layout_names(readme)
    return [f for f in files
            if not any(f == n or (n.endswith("/") and f.startswith(n)) or
                       ("*" in n and fnmatch.fnmatch(f, n)) for n in names)]


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "."
    bad = []
    with open(os.path.join(repo, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    n = words(readme)
    print("README.md: %d words (at most %d)" % (n, README_WORDS))
    if n > README_WORDS:
        bad.append("README.md has %d words, over %d" % (n, README_WORDS))
    widest = 0
    for line, cell in table_cells(readme.splitlines()):
        w = words(cell)
        widest = max(widest, w)
        if w > CELL_WORDS:
            bad.append("README.md:%d: a table cell of %d words, over %d: %s"
                       % (line, w, CELL_WORDS, cell[:60]))
    print("README.md: widest table cell %d words (at most %d)" %
          (widest, CELL_WORDS))
    missing = unlisted(repo, readme)
    if missing is None:
        print("README.md: layout not checked (no git checkout)")
    else:
        print("README.md: layout names every tracked file" if not missing
              else "README.md: layout misses %d files" % len(missing))
        for f in missing:
            bad.append("README.md: the layout table does not name " + f)
    total = 0
    for path in sorted(glob.glob(os.path.join(repo, "Documentation",
                                              "*.rst"))):
        with open(path, encoding="utf-8") as f:
            w = words(f.read())
        print("%s: %d words" % (os.path.relpath(path, repo), w))
        total += w
    print("Documentation/*.rst: %d words (at most %d)" % (total, RST_WORDS))
    if total > RST_WORDS:
        bad.append("Documentation/*.rst have %d words, over %d" %
                   (total, RST_WORDS))
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
