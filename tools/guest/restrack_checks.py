# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""irdma's details in `rdma -dd res show qp|cq|mr|cm_id` (restrack.c),
checked against the objects tools/tests/39b-restrack.sh made and against
the simulated engine's view of them (its debugfs state).

usage: restrack_checks.py kernel IBDEV SIM_STATE
       restrack_checks.py cm IBDEV SIM_STATE PORT
"""
import subprocess
import sys

# the kernel name of its objects, as rdma(8) shows it: a task's comm of 16
KFAULT = "irdma_test_kfau"
RAW = {}


def die(msg):
    for kind, text in RAW.items():
        print("rdma -dd res show %s:\n%s" % (kind, text))
    print("FAIL: " + msg)
    sys.exit(1)


def want(what, got, expected):
    if got != expected:
        die("%s: %r, expected %r" % (what, got, expected))


def res(kind, dev):
    """the objects of KIND on DEV, as rdma -dd prints them: {key: value}

    Parsed from the text output: iproute2 6.1 closes each JSON object
    before its driver table (fixed in later releases). An object is a line
    and the indented lines after it, all "key value" pairs.
    """
    p = subprocess.run(["rdma", "-dd", "res", "show", kind],
                       capture_output=True, text=True, check=False)
    if p.returncode:
        die("rdma res show %s: %s" % (kind, p.stderr.strip()))
    objs = []
    for line in p.stdout.splitlines():
        if not line.strip():
            continue
        if line[0].isspace() and objs:
            objs[-1] += line.split()
        else:
            objs.append(line.split())
    out = []
    for words in objs:
        # each word maps to the next: a key to its value, whatever else
        # the line holds
        o = {}
        for k, v in zip(words, words[1:]):
            # rdma(8) names a driver's entries drv_NAME
            k = k[4:] if k.startswith("drv_") else k
            o.setdefault(k, int(v) if v.isdigit() else v)
        o["ifname"] = str(o.get("dev", o.get("link", ""))).split("/")[0]
        out.append(o)
    RAW[kind] = p.stdout
    return [o for o in out if o["ifname"] == dev]


def engine(state):
    """the engine's QPs, CQs and STags: {"qp": {id: {field: value}}, ...}"""
    out = {"qp": {}, "cq": {}, "stag": {}}
    with open(state) as f:
        for line in f:
            kind = line.split(" ", 1)[0]
            if kind not in out or ":" not in line:
                continue
            head, rest = line.split(":", 1)
            fields = dict(kv.split("=", 1) for kv in rest.split())
            out[kind][int(head.split()[1], 0)] = fields
    return out


def one(objs, what):
    if len(objs) != 1:
        die("%d %s, expected 1: %s" % (len(objs), what, objs))
    return objs[0]


def key(v):
    return v if isinstance(v, int) else int(str(v), 16)


def check_qp(q, eng, kernel):
    """a QP's sizes are the engine's; a kernel QP shows its indexes"""
    e = eng["qp"].get(q["lqpn"])
    if e is None:
        die("QP %d is not the engine's" % q["lqpn"])
    n = "QP %d" % q["lqpn"]
    want(n + " sq_size", q.get("sq_size"), int(e["sq"]))
    want(n + " rq_shift", q.get("rq_shift"), int(e["rq_shift"]))
    want(n + " rq_size << rq_shift", q["rq_size"] << q["rq_shift"],
         int(e["rq"]))
    want(n + " hw_state", q.get("hw_state"), int(e["state"]))
    want(n + " hw_type", q.get("hw_type"), int(e["type"]))
    if not kernel:
        want(n + " (user) ring indexes shown", "sq_head" in q, False)
        return
    # nothing was posted
    for f in ("sq_head", "sq_tail", "sq_rung", "rq_head", "rq_tail"):
        want(n + " " + f, q.get(f), 0)


def kernel(dev, state):
    eng = engine(state)
    q = one([o for o in res("qp", dev) if KFAULT in o.get("comm", "")],
            "kernel QPs of " + KFAULT)
    want("QP state", q.get("state"), "RTS")
    check_qp(q, eng, True)
    print("QP %d: SQ %d quanta, RQ %d WQEs of %d quanta, engine state %d"
          % (q["lqpn"], q["sq_size"], q["rq_size"], 1 << q["rq_shift"],
             q["hw_state"]))

    c = one([o for o in res("cq", dev) if KFAULT in o.get("comm", "")],
            "kernel CQs of " + KFAULT)
    e = eng["cq"].get(c.get("cq_id"))
    if e is None:
        die("CQ %s is not the engine's: %s" % (c.get("cq_id"), c))
    want("CQ size", c.get("size"), int(e["size"]))
    want("CQ CEQ", c.get("ceq"), int(e["ceq"]))
    want("CQ head", c.get("head"), 0)
    if c["size"] < 16:
        die("CQ of %d entries for 16 asked" % c["size"])
    print("CQ %d: %d CQEs of %d bytes on CEQ %d" % (c["cq_id"], c["size"],
                                                   c["cqe_bytes"], c["ceq"]))

    m = one([o for o in res("mr", dev) if KFAULT in o.get("comm", "")],
            "kernel MRs of " + KFAULT)
    want("MR type", m.get("mr_type"), "fast_reg")
    want("MR max_pages", m.get("max_pages"), 16)
    want("MR pbl_level", m.get("pbl_level"), 1)
    # the engine's STags by index (the key byte is the MR's to change)
    e = {k >> 8: v for k, v in eng["stag"].items()}.get(key(m["lkey"]) >> 8)
    if e is None:
        die("MR lkey %s is not the engine's: %s" % (m["lkey"], eng["stag"]))
    want("engine's STag kind", e["kind"], "fastreg")
    want("MR first_pble", m.get("first_pble"), int(e["first_pble"]))
    want("MR pbl_level (engine)", m["pbl_level"], int(e["pbl"]))
    print("MR %s: fast_reg, 16 pages at most, level %d PBLEs from %d"
          % (m["lkey"], m["pbl_level"], m["first_pble"]))


def port_of(o, end):
    """the port of "src" or "dst" ("src-addr": "ADDR:PORT"), or None"""
    if end + "-port" in o:
        return o[end + "-port"]
    addr = o.get(end + "-addr")
    return int(addr.rsplit(":", 1)[1]) if addr else None


def cm(dev, state, port):
    eng = engine(state)
    ids = [o for o in res("cm_id", dev)
           if port in (port_of(o, "src"), port_of(o, "dst"))]
    lis = one([o for o in ids if o.get("cm_state") == "LISTENER"],
              "listeners on port %d" % port)
    # rping: rdma_listen(id, 3)
    want("listener backlog", lis.get("backlog"), 3)
    want("listener pending", lis.get("pending"), 0)
    conns = [o for o in ids if o.get("cm_state") == "OFFLOADED"]
    want("offloaded connections' ids", len(conns), 2)
    want("active ends", sorted(o.get("active") for o in conns), [0, 1])
    for o in conns:
        n = "cm_id %s to %s" % (o.get("src-addr"), o.get("dst-addr"))
        want(n + " MPA revision", o.get("mpa_rev"), 2)
        # rping asks for IRD and ORD 1, as its peer does
        for f in ("ird", "ord", "peer_ird", "peer_ord"):
            want(n + " " + f, o.get(f), 1)
        # IPv4 at MTU 1500
        want(n + " mss", o.get("mss"), 1460)
    qps = [o for o in res("qp", dev) if o.get("comm") == "rping"]
    want("rping's QPs", len(qps), 2)
    for q in qps:
        check_qp(q, eng, False)
    print("listener: backlog %d; connections: %s" % (lis["backlog"], ", ".join(
        "%s MPA v%d IRD/ORD %d/%d MSS %d snd_nxt %d rcv_nxt %d" % (
            "active" if o["active"] else "passive", o["mpa_rev"], o["ird"],
            o["ord"], o["mss"], o["snd_nxt"], o["rcv_nxt"])
        for o in conns)))


if __name__ == "__main__":
    if sys.argv[1] == "kernel":
        kernel(sys.argv[2], sys.argv[3])
    else:
        cm(sys.argv[2], sys.argv[3], int(sys.argv[4]))
