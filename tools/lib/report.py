#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Turn the results of an irdma-vm test run into one verdict.

Usage: report.py RUN_DIR REPO

RUN_DIR holds static/*.txt (one file per static check), and one directory
per guest boot (kunit/, and e2e/ or e2e1/, e2e2/, ... when the guest scripts
were shared out between guests booted at once) with the guest's console.log, job.rc, done,
kmemleak.txt and the job's own results. Every check prints one line; a
failing check prints why. The last line is "N passed, N failed" (with
", N skipped" when something was skipped); the exit code is 1 if anything
failed.
"""
import glob
import os
import re
import sys

# Lines in a guest log that mean the kernel found a bug. Any of them fails
# the run, whatever the tests said.
BAD_LOG = re.compile(
    r"BUG: |KASAN|UBSAN|WARNING: |------------\[ cut here \]|"
    r"Oops|general protection fault|Kernel panic|kernel BUG at|"
    r"possible circular locking|possible recursive locking|"
    r"inconsistent lock state|suspicious RCU usage|"
    r"INFO: task .* blocked for more than|watchdog: BUG: soft lockup|"
    r"unreferenced object|memory leaks|"
    r"Call Trace:")
# Boot-time lines that match the patterns above but report no bug.
BENIGN_LOG = re.compile(r"KernelAddressSanitizer initialized|kasan: ")
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d+\] ")


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def ok(self, name, note=""):
        self.passed += 1
        print(f"PASS  {name}{'  (' + note + ')' if note else ''}")

    def fail(self, name, why=""):
        self.failed += 1
        print(f"FAIL  {name}")
        for line in why.rstrip().splitlines():
            print(f"      | {line}")

    def skip(self, name, why):
        self.skipped += 1
        print(f"SKIP  {name}  ({why})")


def read(path, default=None):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def static_checks(run, t):
    for path in sorted(glob.glob(os.path.join(run, "static", "*.txt"))):
        name = "static/" + os.path.basename(path)[:-4]
        text = read(path, "")
        rc = read(path[:-4] + ".rc", "1").strip()
        if rc == "0":
            t.ok(name)
        else:
            t.fail(name, text[-6000:])


def expected_suites(repo):
    """Suite names declared in kunit/ and sim/: each must report results."""
    names = set()
    for path in (glob.glob(os.path.join(repo, "kunit", "*.c")) +
                 glob.glob(os.path.join(repo, "sim", "*_test.c"))):
        names.update(re.findall(r'\.name\s*=\s*"(irdma_\w+)"', read(path, "")))
    return names


def ktap_cases(text):
    """Yield (status, name, directive, log) for each test case of a suite.

    A suite's KTAP has its cases at one indentation level (four spaces);
    parameters of a parameterised case sit deeper and are folded into the
    case's own line.
    """
    log = []
    for line in text.splitlines():
        m = re.match(r"^    (not ok|ok) \d+ (?:- )?([^#]*?)\s*(?:#\s*(.*))?$", line)
        if m:
            yield m.group(1), m.group(2), (m.group(3) or ""), log
            log = []
        else:
            log.append(line)


def console_suites(console):
    """Split the KTAP that module-load printed on the console into suites.

    The debugfs results files of Linux 6.1 keep only the first 2 KiB of a
    suite's log, so a long or parameterised suite loses lines (a failing
    case among them); the console has all of it. Returns {suite: text}
    with the cases at four spaces, as in the debugfs files.
    """
    suites, cur, buf = {}, None, []
    for raw in console.splitlines():
        line = TIMESTAMP.sub("", raw)
        m = re.match(r"^    # Subtest: (irdma_\w+)\s*$", line)
        if m:
            cur, buf = m.group(1), []
            continue
        if cur is None:
            continue
        m = re.match(r"^(not ok|ok) \d+ (?:- )?(irdma_\w+)", line)
        if m and m.group(2) == cur:
            buf.append(line)
            suites[cur] = "\n".join(buf)
            cur = None
            continue
        buf.append(line)
    if cur is not None:
        suites[cur] = "\n".join(buf)
    return suites


def kunit(run, repo, t):
    boot = os.path.join(run, "kunit")
    if not guest_finished(boot, "kunit", t):
        return
    found = set()
    texts = {}
    for path in sorted(glob.glob(os.path.join(boot, "kunit", "*.ktap"))):
        texts[os.path.basename(path)[:-5]] = read(path, "")
    texts.update(console_suites(read(os.path.join(boot, "console.log"), "")))
    for suite in sorted(texts):
        if not suite.startswith("irdma"):
            continue
        found.add(suite)
        text = texts[suite]
        cases = failed = 0
        for status, name, directive, log in ktap_cases(text):
            cases += 1
            full = f"kunit/{suite}.{name}"
            if directive.upper().startswith("SKIP"):
                t.skip(full, directive[4:].strip() or "no reason given")
            elif status == "ok":
                t.ok(full)
            else:
                failed += 1
                t.fail(full, "\n".join(log[-40:]))
        plan = re.search(r"^    1\.\.(\d+)\s*$", text, re.M)
        result = re.search(r"^(not ok|ok) \d+ (- )?" + re.escape(suite) + r"\b",
                           text, re.M)
        if cases == 0:
            t.fail(f"kunit/{suite}", "suite reported no test cases:\n" + text[-3000:])
        elif not result:
            t.fail(f"kunit/{suite}", "suite did not complete")
        elif plan and int(plan.group(1)) != cases:
            t.fail(f"kunit/{suite}", f"planned {plan.group(1)} cases, "
                   f"{cases} reported")
        elif result.group(1) == "not ok" and not failed:
            t.fail(f"kunit/{suite}", "suite failed outside its cases:\n" +
                   text[-3000:])
    for suite in sorted(expected_suites(repo) - found):
        t.fail(f"kunit/{suite}", "suite declared in kunit/ but no results: "
               "it did not run (irdma.ko failed to load?)")


def e2e_boots(run):
    """The guests that ran guest scripts: e2e, or e2e1, e2e2, ..."""
    wanted = read(os.path.join(run, "guests"), None)
    names = wanted.split() if wanted is not None else \
        [os.path.basename(d) for d in glob.glob(os.path.join(run, "e2e*"))]
    boots = sorted(n for n in names if re.fullmatch(r"e2e\d*", n))
    return boots or ["e2e"]


def e2e(run, t):
    for job in e2e_boots(run):
        e2e_boot(run, job, t)


def e2e_boot(run, job, t):
    boot = os.path.join(run, job)
    if not guest_finished(boot, job, t):
        return
    rows = read(os.path.join(boot, "e2e.tsv"), "")
    if not rows.strip():
        t.fail(job, "no guest test ran")
        return
    for row in rows.splitlines():
        name, rc, secs = row.split("\t")
        out = read(os.path.join(boot, "e2e", name + ".log"), "")
        if rc == "0":
            t.ok(f"e2e/{name}", f"{secs} s")
        elif rc == "77":
            reasons = [l for l in out.splitlines() if l.startswith("SKIP")]
            t.skip(f"e2e/{name}", reasons[-1] if reasons else "no reason given")
        else:
            why = f"exit {rc}" + (" (timeout)" if rc in ("124", "137") else "")
            t.fail(f"e2e/{name}", why + "\n" + "\n".join(out.splitlines()[-40:]))


def guest_finished(boot, job, t):
    run = os.path.dirname(boot)
    wanted = read(os.path.join(run, "guests"), None)
    if wanted is not None and job not in wanted.split():
        t.skip(f"guest/{job}", "not booted in this run (--guest)")
        return False
    if not os.path.isdir(boot):
        if wanted is not None:
            t.fail(f"guest/{job}", "the guest left no results directory")
        return False
    if os.path.exists(os.path.join(boot, "done")):
        return True
    console = read(os.path.join(boot, "console.log"), "")
    t.fail(f"guest/{job}", "the guest did not finish its job (crash, hang or "
           "timeout); last console lines:\n" + "\n".join(console.splitlines()[-60:]))
    return False


def kmemleak_ours(text):
    """The kmemleak objects allocated after the guest's baseline.

    The listing starts with the guest uptime of the baseline and of the
    listing; an object's "age" is counted to the listing, so an object
    older than (listed - baseline) was allocated by boot, not by us.
    """
    base = re.search(r"^# kmemleak-baseline ([\d.]+)", text, re.M)
    listed = re.search(r"^# kmemleak-listed ([\d.]+)", text, re.M)
    blocks = re.split(r"(?m)^(?=unreferenced object )", text)
    kept = []
    for b in blocks:
        if not b.startswith("unreferenced object "):
            continue
        age = re.search(r"\(age (\d+(?:\.\d+)?)s\)", b)
        if base and listed and age and \
                float(age.group(1)) > float(listed.group(1)) - float(base.group(1)):
            continue
        kept.append(b.rstrip())
    return "\n".join(kept)


def log_scan(run, t):
    for boot in ["kunit"] + e2e_boots(run):
        d = os.path.join(run, boot)
        if not os.path.isdir(d):
            continue
        console = read(os.path.join(d, "console.log"), "")
        lines = [TIMESTAMP.sub("", l) for l in console.splitlines()]
        hits = [i for i, l in enumerate(lines)
                if BAD_LOG.search(l) and not BENIGN_LOG.search(l)]
        leaks = kmemleak_ours(read(os.path.join(d, "kmemleak.txt"), ""))
        if not hits and not leaks:
            t.ok(f"logscan/{boot}", "no KASAN/UBSAN/lockdep/WARN/BUG/Oops/kmemleak")
            continue
        report = []
        if hits:
            first = max(hits[0] - 5, 0)
            report += lines[first:first + 80]
        if leaks:
            report += ["kmemleak:"] + leaks.splitlines()[:60]
        t.fail(f"logscan/{boot}", "\n".join(report))


def main():
    run, repo = sys.argv[1], sys.argv[2]
    t = Tally()
    static_checks(run, t)
    kunit(run, repo, t)
    e2e(run, t)
    log_scan(run, t)
    tail = f", {t.skipped} skipped" if t.skipped else ""
    print(f"{t.passed} passed, {t.failed} failed{tail}")
    return 1 if t.failed else 0


if __name__ == "__main__":
    sys.exit(main())
