# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""The MPA and DDP peer of tools/tests/53-iw-terminate.sh, a kernel TCP
socket.

usage: terminate_peer.py ADDR PORT PDATA CASE

MPA v2 request, the reply, then what CASE sends; case tw waits for
/tmp/53-tw-go between our FIN and its own.
"""
import socket
import struct
import sys
import time

import iwcm

addr, port, pdata, case = (sys.argv[1], int(sys.argv[2]),
                           sys.argv[3].encode(), sys.argv[4])
go = '/tmp/53-%s-go' % case


def tw_close(s):
    """our FIN, then (once the test lost our next ACK) the peer's; its TCP
    must get to CLOSED without an error, having sent the FIN again"""
    rest = iwcm.read_to_end(s)
    if rest:
        sys.exit('%d bytes before the FIN: %s' % (len(rest), rest.hex()))
    print('FIN', flush=True)
    iwcm.wait_file(go, 'the test', 60)
    t0 = time.time()
    s.shutdown(socket.SHUT_WR)
    print('our FIN sent', flush=True)
    # struct tcp_info: tcpi_state first, tcpi_total_retrans at 100
    while time.time() - t0 < 120:
        info = s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
        if info[0] == 7:
            break
        time.sleep(0.1)
    err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
    resent = struct.unpack_from('=I', info, 100)[0]
    print('TCP state', info[0], 'error', err, 'segments sent again', resent,
          flush=True)
    if info[0] != 7 or err:
        sys.exit('not closed cleanly: state %d, error %d' % (info[0], err))
    if resent < 1:
        sys.exit('the FIN was not sent again: nothing tested')
    print('closed', flush=True)
s, crc = iwcm.peer_open(addr, port, pdata)
if case == 'write':
    # tagged, last, DDP 1; RDMAP 1, WRITE; STag, TO; 8 bytes
    ulpdu = (bytes([0xc1, 0x40]) + struct.pack('>IQ', 0x12345678, 0x1000) +
             b'terminat')
    s.sendall(iwcm.mpa_fpdu(ulpdu, crc))
    print('WRITE to STag 0x12345678 sent', flush=True)
    t = iwcm.read_fpdu(s, crc)
    print('FPDU', t.hex(), flush=True)
    if len(t) < 22 or t[0] != 0x41 or t[1] != 0x47:
        sys.exit('not an untagged last TERMINATE: %s' % t.hex())
    if struct.unpack('>III', t[6:18]) != (2, 1, 0):
        sys.exit('queue, MSN, MO %s' % (struct.unpack('>III', t[6:18]),))
    if t[18:22] != bytes([0x11, 0x00, 0xc0, 0x00]):
        sys.exit('TERMINATE control %s' % t[18:22].hex())
    if t[22:] != struct.pack('>H', len(ulpdu)) + ulpdu[:14]:
        sys.exit('terminated headers %s' % t[22:].hex())
    print('TERMINATE: DDP tagged buffer error, invalid STag, with the '
          'WRITE\'s length and DDP header', flush=True)
elif case == 'local':
    iwcm.send_rtr(s, crc)
    t = iwcm.read_fpdu(s, crc)
    print('FPDU', t.hex(), flush=True)
    if len(t) != 22 or t[0] != 0x41 or t[1] != 0x47:
        sys.exit('not an untagged last TERMINATE alone: %s' % t.hex())
    if struct.unpack('>III', t[6:18]) != (2, 1, 0):
        sys.exit('queue, MSN, MO %s' % (struct.unpack('>III', t[6:18]),))
    if t[18:22] != bytes(4):
        sys.exit('TERMINATE control %s' % t[18:22].hex())
    print('TERMINATE: RDMAP, local catastrophic error, no headers',
          flush=True)
elif case == 'closing':
    iwcm.send_rtr(s, crc)
    # untagged, last; READ request; queue 1, MSN 1, MO 0; sink STag and
    # TO, size, source STag and TO
    t = iwcm.read_fpdu(s, crc)
    if (len(t) != 46 or t[:2] != bytes([0x41, 0x41]) or
            struct.unpack('>III', t[6:18]) != (1, 1, 0)):
        sys.exit('not a READ request: %s' % t.hex())
    sink, sink_to, size, src, src_to = struct.unpack('>IQIIQ', t[18:46])
    if (size, src, src_to) != (16, 0x5eed, 0x2000):
        sys.exit('READ request for %d bytes at %x, TO %x' % (size, src,
                                                              src_to))
    print('READ request for 16 bytes', flush=True)
    iwcm.wait_file(go, 'the server')
    # tagged, last; READ response to the sink
    s.sendall(iwcm.mpa_fpdu(bytes([0xc1, 0x42]) +
                            struct.pack('>IQ', sink, sink_to) +
                            b'closing-readresp', crc))
    print('READ response sent', flush=True)
    buf = b''
    t0 = time.time()
    s.settimeout(1)
    while time.time() - t0 < 300:
        try:
            d = s.recv(4096)
        except socket.timeout:
            continue
        except ConnectionResetError:
            if buf:
                sys.exit('%d bytes before the RST: %s' % (len(buf),
                                                          buf.hex()))
            print('RST, with nothing before it', flush=True)
            sys.exit(0)
        if not d:
            sys.exit('a FIN after %d bytes, not an RST: %s' % (len(buf),
                                                               buf.hex()))
        buf += d
    sys.exit('neither an RST nor a FIN within 300 s')
elif case == 'tw':
    iwcm.send_rtr(s, crc)
    tw_close(s)
    sys.exit(0)
else:
    # untagged, last; TERMINATE; queue 2, MSN 1, MO 0; RDMAP remote
    # operation error, unexpected opcode, no headers
    ulpdu = (bytes([0x41, 0x47]) + struct.pack('>IIII', 0, 2, 1, 0) +
             bytes([0x02, 0x06, 0x00, 0x00]))
    s.sendall(iwcm.mpa_fpdu(ulpdu, crc))
    print('TERMINATE sent', flush=True)
rest = iwcm.read_to_end(s)
if rest:
    sys.exit('%d bytes more before the FIN: %s' % (len(rest), rest.hex()))
print('FIN', flush=True)
s.close()
