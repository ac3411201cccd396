# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The MPA and DDP peer of tools/tests/58-iw-partial.sh, a kernel TCP socket
that cuts its FPDUs across TCP segments.

usage: partial_peer.py ADDR PORT PDATA CASE

MPA v2 request, the reply, the RTR, then what CASE sends.
"""
import socket
import struct
import sys
import time

import iwcm

addr, port, pdata, case = (sys.argv[1], int(sys.argv[2]),
                           sys.argv[3].encode(), sys.argv[4])


def pattern(n, seed):
    return bytes((seed + 7 * i) & 0xff for i in range(n))


def send_cut(s, stream, cuts, pause=0.3, quiet=False):
    """stream as segments that end at the offsets in cuts (and its end)"""
    start = 0
    for end in cuts + [len(stream)]:
        s.sendall(stream[start:end])
        if not quiet:
            print('segment of', end - start, 'bytes', flush=True)
        start = end
        time.sleep(pause)


def tagged(op, last, stag, to, data, crc, good=True):
    """a tagged FPDU: DDP control (tagged, last, version 1), RDMAP
    version 1 and opcode, STag, TO"""
    f = iwcm.mpa_fpdu(bytes([0x81 | (0x40 if last else 0), 0x40 | op]) +
                      struct.pack('>IQ', stag, to) + data, crc)
    if not good:
        f = f[:-1] + bytes([f[-1] ^ 0x5a])
    return f


s, crc = iwcm.peer_open(addr, port, pdata, nodelay=True)
iwcm.send_rtr(s, crc)
time.sleep(0.3)
if case in ('data', 'burst'):
    t = iwcm.read_fpdu(s, crc)
    if (len(t) != 46 or t[:2] != bytes([0x41, 0x41]) or
            struct.unpack('>III', t[6:18]) != (1, 1, 0)):
        sys.exit('not a READ request: %s' % t.hex())
    sink, sink_to, size, src, src_to = struct.unpack('>IQIIQ', t[18:46])
    if (size, src, src_to) != (1800, 0x5eed, 0x2000):
        sys.exit('READ request for %d bytes at %x, TO %x' % (size, src,
                                                              src_to))
    print('READ request for 1800 bytes', flush=True)
    # READ RESPONSE (opcode 2): 1000 bytes, then the last 800
    stream = (tagged(2, False, sink, sink_to, pattern(1000, 1), crc) +
              tagged(2, True, sink, sink_to + 1000, pattern(800, 2), crc))
    if len(stream) != 1840:
        sys.exit('READ response stream of %d bytes' % len(stream))
if case == 'data':
    send_cut(s, stream, [700, 1200])
    print('READ response sent cut at 700 and 1200', flush=True)
    # RDMA WRITE (opcode 0) into the sink: 200 bytes, then 300 bytes
    w1 = tagged(0, True, sink, sink_to, pattern(200, 3), crc)
    w2 = tagged(0, True, sink, sink_to + 200, pattern(300, 4), crc)
    send_cut(s, w1 + w2, [len(w1) + 100])
    print('WRITEs sent cut 100 bytes into the second', flush=True)
    time.sleep(2)
    s.shutdown(socket.SHUT_WR)
    print('our FIN sent', flush=True)
elif case == 'burst':
    # the READ response as the engine wants it: an FPDU per segment
    send_cut(s, stream, [1020])
    iwcm.wait_file('/tmp/58-stalled', 'the test', 300)
    # 80 WRITEs of 10 bytes (FPDUs of 32), each segment cut 16 bytes into
    # one: each completes the one before, so that each makes a send back
    # while the test holds them
    burst = b''.join(tagged(0, True, sink, sink_to + 500 + 10 * k,
                            pattern(10, 10 + k), crc) for k in range(80))
    send_cut(s, burst, [16 + 32 * k for k in range(80)], pause=0.05,
             quiet=True)
    print('80 WRITEs sent, each cut in two', flush=True)
    open('/tmp/58-sent', 'w').close()
    iwcm.wait_file('/tmp/58-placed', 'the server', 300)
    s.shutdown(socket.SHUT_WR)
    print('our FIN sent', flush=True)
else:
    bad = tagged(0, True, 0x1234, 0, pattern(600, 5), crc, good=False)
    send_cut(s, bad, [300])
    print('WRITE with a bad CRC sent cut at 300', flush=True)
    t = iwcm.read_fpdu(s, crc)
    print('FPDU', t.hex(), flush=True)
    if len(t) != 22 or t[0] != 0x41 or t[1] != 0x47:
        sys.exit('not an untagged last TERMINATE alone: %s' % t.hex())
    if struct.unpack('>III', t[6:18]) != (2, 1, 0):
        sys.exit('queue, MSN, MO %s' % (struct.unpack('>III', t[6:18]),))
    if t[18:22] != bytes([0x20, 0x02, 0x00, 0x00]):
        sys.exit('TERMINATE control %s' % t[18:22].hex())
    print('TERMINATE: MPA, CRC error', flush=True)
rest = iwcm.read_to_end(s)
if rest:
    sys.exit('%d bytes more before the FIN: %s' % (len(rest), rest.hex()))
print('FIN', flush=True)
s.close()
