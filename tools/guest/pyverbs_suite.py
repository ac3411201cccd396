# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Run rdma-core's own test suite (python3-pyverbs) on RDMA devices.

Usage: pyverbs_suite.py TESTS_DIR RUN... [--not-run LABEL PREFIX REASON]...
       [--expect-fail LABEL PREFIX MATCH REASON]...

RUN is LABEL:DEVICE:PROTOCOL, PROTOCOL roce or iwarp. The suite is loaded
once, as its run_tests.py loads it (the package from TESTS_DIR/__init__.py,
every test_*.py module in it), and run once per device with the options
run_tests.py would be given (--dev DEVICE): under TCG each python start and
import of the suite costs tens of seconds.

iWARP: the suite's RDMATestCase drops every GID whose last 8 bytes are
zero, which an iWARP GID (the MAC) always is, and then skips its traffic
tests with "No supported port is up, can't run traffic". Those tests
connect QPs with modify_qp and an address vector, which iWARP does not do;
its QPs are connected by the iWARP CM. The RDMA CM tests (RDMACMBaseTest)
do apply, so on an iWARP device they get --gid 0, the suite's own option
that names the GID to use.

A test whose id starts with PREFIX on the run labelled LABEL is not run,
and is listed with REASON: for tests that do not apply to the device and
that the suite cannot tell (the caller says why).

A test whose id starts with PREFIX on the run labelled LABEL, given with
--expect-fail, must fail, with MATCH in its traceback: a driver's known bug,
whose REASON is printed with it. It counts as an expected failure; should
it pass, or fail any other way, it counts as failed.

Prints per run "pyverbs LABEL: N passed, N failed, N skipped" (and ", N not
run", ", N expected failures"), each skip's reason with the tests it
covers, each expected failure and each failure. Exits 1 if a test failed.
"""
import functools
import importlib.machinery
import os
import sys
import time
import unittest

T0 = time.monotonic()


def stamp(what):
    print(f"[{time.monotonic() - T0:7.1f} s] {what}", flush=True)


def load_suite(tests_dir):
    sys.path.insert(0, tests_dir)
    sys.argv[1:] = []
    from args_parser import parser
    loader = importlib.machinery.SourceFileLoader(
        "tests", os.path.join(tests_dir, "__init__.py"))
    tests = loader.load_module()
    return parser, tests


def cache_net_lookups(base):
    """RDMATestCase.setUp finds the device's netdev (ls) and its address
    (ip -j addr show) in two subprocesses for every test: about 10 s a test
    under TCG. Their answers do not change during a run: keep them."""
    for name in ("get_net_name", "get_ip_mac_address"):
        fn = getattr(base.RDMATestCase, name)
        setattr(base.RDMATestCase, name,
                staticmethod(functools.lru_cache(maxsize=None)(fn)))


def flat(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from flat(t)
        else:
            yield t


def cases(parser, tests, dev, gid=None):
    """The suite's test cases, created with run_tests.py's options"""
    sys.argv[1:] = ["--dev", dev] + (["--gid", str(gid)] if gid is not None
                                     else [])
    parser.parse_args()
    return list(flat(unittest.defaultTestLoader.loadTestsFromModule(tests)))


class Result(unittest.TextTestResult):
    def startTest(self, test):
        self.stream.write(f"[{time.monotonic() - T0:7.1f} s] ")
        super().startTest(test)


def expected(test, err, expect):
    """The reason of the --expect-fail that test's failure err matches"""
    for prefix, match, reason in expect:
        if test.id().startswith(prefix) and match in err:
            return reason
    return None


def run(parser, tests, label, dev, proto, not_run, expect_fail):
    import tests.base as base
    todo = cases(parser, tests, dev)
    if proto == "iwarp":
        cm = [t for t in cases(parser, tests, dev, 0)
              if isinstance(t, base.RDMACMBaseTest)]
        ids = {t.id() for t in cm}
        todo = [t for t in todo if t.id() not in ids] + cm
    skipped_here = []
    for prefix, reason in not_run.get(label, []):
        skipped_here += [(t.id(), reason) for t in todo
                         if t.id().startswith(prefix)]
        todo = [t for t in todo if not t.id().startswith(prefix)]
    stamp(f"{label}: {len(todo)} tests on {dev} ({proto})")
    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2,
                                     resultclass=Result)
    res = runner.run(unittest.TestSuite(todo))
    expect = expect_fail.get(label, [])
    bad, known = [], []
    for t, err in res.failures + res.errors:
        why = expected(t, err, expect)
        if why:
            known.append((t.id(), why))
        else:
            bad.append((t, err))
    bad += [(t, "unexpected success") for t in res.unexpectedSuccesses]
    failed_ids = {t.id() for t, _ in res.failures + res.errors}
    skipped_ids = {t.id() for t, _ in res.skipped}
    # an expected failure that did not happen (passed or failed otherwise)
    missed = [t for t in todo if t.id() not in failed_ids and
              t.id() not in skipped_ids and
              any(t.id().startswith(p) for p, _, _ in expect)]
    passed = res.testsRun - len(res.failures) - len(res.errors) - \
        len(res.unexpectedSuccesses) - len(res.skipped) - \
        len(res.expectedFailures) - len(missed)
    bad += [(t, "expected to fail") for t in missed]
    line = f"pyverbs {label}: {passed} passed, {len(bad)} failed, " \
        f"{len(res.skipped)} skipped"
    if skipped_here:
        line += f", {len(skipped_here)} not run"
    if known:
        line += f", {len(known)} expected failures"
    by_reason = {}
    for t, why in res.skipped:
        by_reason.setdefault(why, []).append(t.id().removeprefix("tests."))
    summary = [line]
    for why, ids in sorted(by_reason.items(), key=lambda i: -len(i[1])):
        summary.append(f"  skip ({len(ids)}) '{why}': {' '.join(ids)}")
    for tid, why in skipped_here:
        summary.append(f"  not run {tid.removeprefix('tests.')}: {why}")
    for tid, why in known:
        summary.append(f"  expected failure {tid.removeprefix('tests.')}: "
                       f"{why}")
    for t, why in bad:
        what = f" ({why})" if why == "expected to fail" else ""
        summary.append(f"  FAILED {t.id().removeprefix('tests.')}{what}")
    return summary, bool(bad)


def main():
    args = sys.argv[1:]
    tests_dir, runs, not_run, expect_fail = args[0], [], {}, {}
    i = 1
    while i < len(args):
        if args[i] == "--not-run":
            not_run.setdefault(args[i + 1], []).append((args[i + 2],
                                                        args[i + 3]))
            i += 4
        elif args[i] == "--expect-fail":
            expect_fail.setdefault(args[i + 1], []).append(
                (args[i + 2], args[i + 3], args[i + 4]))
            i += 5
        else:
            runs.append(args[i].split(":"))
            i += 1
    parser, tests = load_suite(tests_dir)
    import tests.base
    cache_net_lookups(tests.base)
    stamp(f"suite loaded: {len(tests.__test_modules__)} modules")
    failed = False
    summaries = []
    for label, dev, proto in runs:
        s, bad = run(parser, tests, label, dev, proto, not_run,
                     expect_fail)
        failed |= bad
        summaries += s
        stamp(f"{label} done")
    print("\n".join(summaries))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
