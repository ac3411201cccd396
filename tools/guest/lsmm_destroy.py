# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""A user QP's destroy while the DEALLOC_STAG of its MPA reply fails
(tools/tests/66-isolation-mr.sh): accept with a user QP, then, once the
file GO exists, destroy the QP with fail_dealloc_stag set, and again.

usage: lsmm_destroy.py ADDR PORT PDATA SIM_DEBUGFS_DIR GO
"""
import ctypes, errno, re, sys

import iwcm

addr, port, pdata, dbg, go = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode(), sys.argv[4], sys.argv[5]
rlen = iwcm.MPA_HDR + iwcm.MPA_V2_IRD_ORD + len(pdata)
ibv = ctypes.CDLL("libibverbs.so.1", use_errno=True)
ibv.ibv_destroy_qp.argtypes = [ctypes.c_void_p]


def reply_stag():
    """the STag of the MPA reply on the engine, or None"""
    with open(dbg + "/state") as f:
        for line in f:
            if re.match(r"stag 0x[0-9a-f]+: kind=mr .*len=%d .*rights=0x1 " %
                        rlen, line):
                return line.split(":")[0]
    return None


cm = iwcm.librdmacm()
lid, cid, ch = iwcm.accept_user_qp(cm, addr, port, pdata)
qp = iwcm.id_verbs_qp(cid)[1]
print("the reply's STag:", reply_stag(), flush=True)
# the peer has the reply before the QP goes
iwcm.wait_file(go, "the script", 300)
with open(dbg + "/fail_dealloc_stag", "w") as f:
    f.write("1")
ret = ibv.ibv_destroy_qp(qp)
print("ATTEMPT destroy-qp: %s" % errno.errorcode.get(ret, "ok"), flush=True)
print("after it, the reply's STag:", reply_stag(), flush=True)
ret = ibv.ibv_destroy_qp(qp)
print("ATTEMPT destroy-qp-again: %s" % errno.errorcode.get(ret, "ok"),
      flush=True)
print("then, the reply's STag:", reply_stag(), flush=True)
cm.rdma_destroy_id(cid)
cm.rdma_destroy_id(lid)
print("done", flush=True)
