#!/usr/bin/env python3
"""Histogram of the objects of an HPROF heap dump whose address lies in [LO, HI), and of the java.lang.ref.Reference
objects among them with their referents' classes: what survived a young collection when LO-HI is the survivor space.
  bench/memory/hprof_range.py DUMP LO HI      (LO, HI hexadecimal, e.g. f6b40000 f6dc2b78)
Right after a young collection under load (BENCHMARKS.md, "Start-up and memory"):
  jcmd PID GC.heap_info                 # the serial collector's "from space [start, top, end)"
  jcmd PID GC.heap_dump -all FILE       # -all: no collection before the dump
HPROF object IDs are addresses; sizes are approximate (16-byte headers assumed). Needs 8-byte IDs (a 64-bit JVM)."""
import struct, sys, collections, mmap

def main():
    path, lo, hi = sys.argv[1], int(sys.argv[2], 16), int(sys.argv[3], 16)
    f = open(path, 'rb'); m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    nul = m.find(b'\0'); idsize = struct.unpack('>I', m[nul+1:nul+5])[0]; assert idsize == 8
    pos = nul + 1 + 4 + 8
    strings = {}; class_name = {}; class_info = {}  # class id -> (super, instance field types list)
    counts = collections.Counter(); sizes = collections.Counter()
    BT = {2: 8, 4: 1, 5: 2, 6: 4, 7: 8, 8: 1, 9: 2, 10: 4, 11: 8}
    instances = []
    n = len(m)
    while pos < n:
        tag = m[pos]; length = struct.unpack('>I', m[pos+5:pos+9])[0]; body = pos + 9; end = body + length
        if tag == 0x01:
            sid = struct.unpack('>Q', m[body:body+8])[0]; strings[sid] = m[body+8:end].decode('utf-8', 'replace')
        elif tag == 0x02:
            cid, nid = struct.unpack('>Q', m[body+4:body+12])[0], struct.unpack('>Q', m[body+16:body+24])[0]
            class_name[cid] = strings.get(nid, '?').replace('/', '.')
        elif tag in (0x0c, 0x1c):
            p = body
            while p < end:
                st = m[p]; p += 1
                if st == 0xff: p += 8
                elif st in (0x01,): p += 16
                elif st in (0x02, 0x03): p += 16
                elif st == 0x04: p += 12
                elif st in (0x05, 0x07): p += 8
                elif st == 0x06: p += 12
                elif st == 0x08: p += 16
                elif st == 0x20:
                    cid = struct.unpack('>Q', m[p:p+8])[0]; sup = struct.unpack('>Q', m[p+12:p+20])[0]
                    p += 8 + 4 + 8*6 + 4
                    cp = struct.unpack('>H', m[p:p+2])[0]; p += 2
                    for _ in range(cp):
                        t = m[p+2]; p += 3 + BT[t]
                    sf = struct.unpack('>H', m[p:p+2])[0]; p += 2
                    for _ in range(sf):
                        t = m[p+8]; p += 9 + BT[t]
                    nf = struct.unpack('>H', m[p:p+2])[0]; p += 2
                    fields = []
                    for _ in range(nf):
                        fid = struct.unpack('>Q', m[p:p+8])[0]; t = m[p+8]; p += 9
                        fields.append((strings.get(fid, '?'), t))
                    class_info[cid] = (sup, fields)
                elif st == 0x21:
                    oid, cid, ln = struct.unpack('>Q', m[p:p+8])[0], struct.unpack('>Q', m[p+12:p+20])[0], struct.unpack('>I', m[p+20:p+24])[0]
                    if lo <= oid < hi:
                        counts[cid] += 1; sizes[cid] += 16 + ln; instances.append((oid, cid, p + 24))
                    p += 24 + ln
                elif st == 0x22:
                    oid = struct.unpack('>Q', m[p:p+8])[0]; ne = struct.unpack('>I', m[p+12:p+16])[0]
                    acid = struct.unpack('>Q', m[p+16:p+24])[0]
                    if lo <= oid < hi:
                        key = ('arr', acid); counts[key] += 1; sizes[key] += 16 + 4 * ne
                    p += 24 + ne * 8
                elif st == 0x23:
                    oid = struct.unpack('>Q', m[p:p+8])[0]; ne = struct.unpack('>I', m[p+12:p+16])[0]; t = m[p+16]
                    if lo <= oid < hi:
                        key = ('prim', t); counts[key] += 1; sizes[key] += 16 + BT[t] * ne
                    p += 17 + ne * BT[t]
                else:
                    raise SystemExit('unknown subtag %x at %d' % (st, p))
        pos = end
    prim = {4: 'boolean[]', 5: 'char[]', 6: 'float[]', 7: 'double[]', 8: 'byte[]', 9: 'short[]', 10: 'int[]', 11: 'long[]'}
    def name(k):
        if isinstance(k, tuple):
            return prim[k[1]] if k[0] == 'prim' else class_name.get(k[1], '?') + '(array)'
        return class_name.get(k, '?')
    tot = sum(sizes.values())
    print('objects %d, ~%.2f MB (headers approximated)' % (sum(counts.values()), tot / 1e6))
    for k, s in sizes.most_common(45):
        print('%9d %10d  %s' % (counts[k], s, name(k)))
    # references: by class, and the class of the referent
    def is_ref(cid):
        c = cid
        while c in class_info:
            if class_name.get(c) == 'java.lang.ref.Reference': return True
            c = class_info[c][0]
        return False
    def fields_all(cid):
        out = []; c = cid
        while c in class_info:
            out.extend(class_info[c][1]); c = class_info[c][0]
        return out
    objclass = {oid: cid for oid, cid, _ in instances}
    refc = collections.Counter()
    for oid, cid, off in instances:
        if not is_ref(cid): continue
        p = off; referent = None
        for fname, t in fields_all(cid):
            sz = BT[t]
            if fname == 'referent': referent = struct.unpack('>Q', m[p:p+8])[0]
            p += sz
        rc = objclass.get(referent)
        where = 'young' if rc is not None else ('null' if referent == 0 else 'elsewhere')
        refc[(class_name[cid], class_name.get(rc, '-') if rc else '-', where)] += 1
    print('\nreferences in range: %d' % sum(refc.values()))
    for (c, r, w), k in refc.most_common(30):
        print('%7d  %s -> %s (%s)' % (k, c, r, w))

main()
