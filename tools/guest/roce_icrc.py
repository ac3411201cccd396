# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
"""Check the ICRC of every RoCEv2 frame in a pcap capture.

    roce_icrc.py CAPTURE

Reads a classic pcap file (Ethernet link type, as tcpdump -w writes it),
takes every IPv4 or IPv6 UDP datagram to port 4791 (RoCEv2), and computes
its ICRC as the InfiniBand spec's RoCEv2 annex defines it: a CRC-32 over
eight bytes of ones standing for the LRH, then the IP header, UDP header,
BTH and the rest up to the ICRC, with the fields routers may change taken
as all ones (IPv4 TOS, TTL and header checksum; IPv6 traffic class, flow
label and hop limit; the UDP checksum; the BTH's reserved byte after the
P_Key). The ICRC is the frame's last four bytes before any Ethernet
padding, least significant byte first.

Prints "icrc: N frames checked, M bad" (and each bad frame's number) and
exits 0 when M is 0 and N is at least 1, 1 otherwise.
"""
import struct
import sys
import zlib

ROCE_PORT = 4791
ETH_P_IP = 0x0800
ETH_P_IPV6 = 0x86DD
ETH_P_8021Q = 0x8100


def icrc(l3, end):
    """the ICRC of the IP datagram l3 whose ICRC starts at byte end"""
    b = bytearray(l3[:end])
    if b[0] >> 4 == 4:
        ihl = (b[0] & 0xF) * 4
        b[1] = 0xFF                     # TOS
        b[8] = 0xFF                     # TTL
        b[10:12] = b'\xff\xff'          # header checksum
    else:
        ihl = 40
        b[0] |= 0x0F                    # traffic class (low), flow label
        b[1:4] = b'\xff\xff\xff'
        b[7] = 0xFF                     # hop limit
    b[ihl + 6:ihl + 8] = b'\xff\xff'    # UDP checksum
    b[ihl + 8 + 4] = 0xFF               # BTH reserved byte
    return zlib.crc32(b'\xff' * 8 + bytes(b)) & 0xFFFFFFFF


def roce_l3(frame):
    """the IP datagram of a RoCEv2 frame (trimmed to its length), or None"""
    off = 12
    etype = struct.unpack_from('!H', frame, off)[0]
    while etype == ETH_P_8021Q:
        off += 4
        etype = struct.unpack_from('!H', frame, off)[0]
    l3 = frame[off + 2:]
    if etype == ETH_P_IP and len(l3) >= 20:
        ihl = (l3[0] & 0xF) * 4
        tot, proto = struct.unpack_from('!H', l3, 2)[0], l3[9]
    elif etype == ETH_P_IPV6 and len(l3) >= 40:
        ihl = 40
        tot, proto = 40 + struct.unpack_from('!H', l3, 4)[0], l3[6]
    else:
        return None, 0
    if proto != 17 or tot > len(l3) or tot < ihl + 8 + 12 + 4:
        return None, 0
    if struct.unpack_from('!H', l3, ihl + 2)[0] != ROCE_PORT:
        return None, 0
    return l3[:tot], ihl


def frames(path):
    """the frames of the pcap file at path"""
    with open(path, 'rb') as fh:
        data = fh.read()
    magic = struct.unpack_from('<I', data, 0)[0]
    if magic in (0xA1B2C3D4, 0xA1B23C4D):
        end = '<'
    elif magic in (0xD4C3B2A1, 0x4D3CB2A1):
        end = '>'
    else:
        raise ValueError('not a pcap file: %s' % path)
    if struct.unpack_from(end + 'I', data, 20)[0] != 1:
        raise ValueError('not an Ethernet capture: %s' % path)
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack_from(end + 'I', data, off + 8)[0]
        off += 16
        yield data[off:off + incl]
        off += incl


def main(argv):
    """check the capture argv[1]"""
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    checked = 0
    bad = []
    for n, frame in enumerate(frames(argv[1]), 1):
        l3, _ = roce_l3(frame)
        if l3 is None:
            continue
        checked += 1
        want = struct.unpack_from('<I', l3, len(l3) - 4)[0]
        if icrc(l3, len(l3) - 4) != want:
            bad.append(n)
    print('icrc: %d frames checked, %d bad%s' %
          (checked, len(bad),
           (' (frames %s)' % ' '.join(map(str, bad[:20]))) if bad else ''))
    return 0 if checked and not bad else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
