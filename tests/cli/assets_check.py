#!/usr/bin/env python3
"""Checks what `rebyte extract` wrote, with decoders of its own (docs/usage.md "Assets"):
every file the manifest lists exists with its size; each PNG decodes (chunks, CRCs, zlib, filters,
its pixel count); each JPEG starts with SOI and ends with EOI; each WAV has a RIFF header whose
sizes add up; each CSV has rows of its header's width. With --model DUMP.json (a `rebyte dump
--blobs=omit`), the number of assets of each sort is compared with what the model holds.

Usage: assets_check.py DIR [--model DUMP.json] [--expect-csv-rows N]
       assets_check.py --batch LIST (many folders in one run, and their put-back patches: batch())
Also: assets_check.py --png-pixels FILE (prints width, height and the RGBA rows as hex) and
--write-png FILE W H HEXRGBA (a plain RGBA PNG), which the shell test uses to edit textures."""
import json, os, struct, sys, zlib


def png_decode(data):
    """(width, height, rows of RGBA bytes) of a PNG, decoded here (8-bit depths)."""
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise ValueError('no PNG signature')
    at, idat, palette, trns, header = 8, b'', None, b'', None
    while at < len(data):
        length, kind = struct.unpack('>I4s', data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        crc, = struct.unpack('>I', data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ValueError('chunk %s: CRC differs' % kind)
        if kind == b'IHDR':
            header = struct.unpack('>IIBBBBB', body)
        elif kind == b'PLTE':
            palette = body
        elif kind == b'tRNS':
            trns = body
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if interlace or (depth != 8 and not (colour in (0, 3) and depth in (1, 2, 4))):
        raise ValueError('depth %d / interlace %d not handled here' % (depth, interlace))
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    raw = zlib.decompress(idat)
    stride = (width * channels * depth + 7) // 8
    bpp = max(1, channels * depth // 8)  # the filters' left neighbour, in bytes
    if len(raw) != height * (stride + 1):
        raise ValueError('%d bytes of pixels for %dx%d' % (len(raw), width, height))
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b, c = previous[x], previous[x - bpp] if x >= bpp else 0
            if kind == 1: line[x] = (line[x] + a) & 255
            elif kind == 2: line[x] = (line[x] + b) & 255
            elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            elif kind != 0:
                raise ValueError('filter %d' % kind)
        previous = line
        rgba = bytearray()
        if depth < 8:  # unpack 1, 2 or 4 bits a pixel, leftmost in the high bits
            per, mask = 8 // depth, (1 << depth) - 1
            line = bytearray((line[x // per] >> (8 - depth * (x % per + 1))) & mask for x in range(width))
            if colour == 0:
                line = bytearray(v * 255 // mask for v in line)
        for x in range(width):
            px = line[x * channels:(x + 1) * channels]
            if colour == 3:
                i = px[0]
                if palette is None or 3 * i + 3 > len(palette):
                    raise ValueError('index %d outside the palette' % i)
                rgba += palette[3 * i:3 * i + 3] + bytes([trns[i] if i < len(trns) else 255])
            elif colour == 6: rgba += px
            elif colour == 2: rgba += px + b'\xff'
            elif colour == 0: rgba += px * 3 + b'\xff'
            else: rgba += px[:1] * 3 + px[1:]
        rows.append(bytes(rgba))
    return width, height, rows


def png_encode(width, height, rgba):
    def chunk(kind, body):
        return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))
    raw = b''.join(b'\0' + rgba[y * width * 4:(y + 1) * width * 4] for y in range(height))
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0)) +
            chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))


def check_file(path, data):
    name = path.lower()
    if name.endswith('.png'):
        png_decode(data)
    elif name.endswith('.jpg'):
        if data[:2] != b'\xff\xd8' or b'\xff\xd9' not in data[-64:]:
            raise ValueError('no SOI at the start or no EOI at the end')
    elif name.endswith('.wav'):
        riff, size, wave = struct.unpack('<4sI4s', data[:12])
        if riff != b'RIFF' or wave != b'WAVE' or size != len(data) - 8:
            raise ValueError('RIFF header: %s %d %s for %d bytes' % (riff, size, wave, len(data)))
        at, found = 12, set()
        while at + 8 <= len(data):
            kind, length = struct.unpack('<4sI', data[at:at + 8])
            if at + 8 + length > len(data):
                raise ValueError('chunk %s runs past the end' % kind)
            found.add(kind)
            at += 8 + length + (length & 1)
        if not {b'fmt ', b'data'} <= found:
            raise ValueError('fmt or data chunk missing')
    elif name.endswith('.csv'):
        lines = data.decode('utf-8').splitlines()
        width = len(lines[0].split(','))
        for i, line in enumerate(lines[1:], 2):
            if len(line.split(',')) != width:
                raise ValueError('line %d has %d fields, the header %d' % (i, len(line.split(',')), width))
    elif name.endswith('.gbx'):
        if data[:3] != b'GBX':
            raise ValueError('no GBX magic')
    elif name.endswith('.webp'):
        if data[:4] != b'RIFF' or data[8:12] != b'WEBP':
            raise ValueError('no RIFF WEBP header')


def model_counts(dump):
    """How many assets of each folder the model holds, counted from the dump."""
    counts = {}
    def add(kind, n=1):
        counts[kind] = counts.get(kind, 0) + n
    def size(v):
        return v.get('$omitted', 0) if isinstance(v, dict) else 0
    def walk(o):
        if isinstance(o, dict):
            if size(o.get('thumbnail')) > 0: add('thumbnails')
            for key in ('icon', 'iconWebP'):
                if size(o.get(key)) > 0: add('icons')
            if isinstance(o.get('frames'), list) and 'lightmapVersion' in o:
                for f in o['frames']:
                    add('lightmaps', sum(1 for k in ('data', 'data2', 'data3') if size(f.get(k)) > 0))
            if isinstance(o.get('embeddedZipData'), dict):
                add('items', sum(1 for f in o['embeddedZipData'].get('files', []) if 'data' in f.get('content', {})))
            if isinstance(o.get('map'), dict) and 'classId' in o['map']: add('maps')
            if isinstance(o.get('samples'), list) and 'samplePeriod' in o:
                add('ghosts')
                return
            samples = o.get('samples')
            if 'bufferType' in o and isinstance(samples, list) and samples and \
                    ('position' in samples[0] or 'state' in samples[0]):
                add('ghosts')  # a car entity of a TM2020 record (docs/formats/gbx_ghost.md)
                return
            for v in o.values(): walk(v)
        elif isinstance(o, list):
            for v in o: walk(v)
    fmt = dump.get('$format')
    if fmt == 'gbx': walk(dump)
    elif fmt == 'tpa': add('sounds', len(dump['bodies']))
    elif fmt == 'pid': add('palettes', len(dump['palettes']))
    elif fmt == 'streamer': add('objects')
    return {k: v for k, v in counts.items() if v}


def main(argv):
    if argv[1] == '--png-pixels':
        w, h, rows = png_decode(open(argv[2], 'rb').read())
        print(w, h, ' '.join(r.hex() for r in rows))
        return 0
    if argv[1] == '--write-png':
        open(argv[2], 'wb').write(png_encode(int(argv[3]), int(argv[4]), bytes.fromhex(argv[5])))
        return 0
    if argv[1] == '--batch':
        return batch(argv[2])
    folder = argv[1]
    model = argv[argv.index('--model') + 1] if '--model' in argv else None
    rows = int(argv[argv.index('--expect-csv-rows') + 1]) if '--expect-csv-rows' in argv else None
    return 1 if check_folder(folder, model, rows) else 0


def check_folder(folder, model=None, csv_rows=None):
    """Prints and returns the problems of one extracted folder."""
    manifest = json.load(open(os.path.join(folder, 'manifest.json')))
    problems, seen = [], {}
    for a in manifest['assets']:
        path = os.path.join(folder, a['file'])
        try:
            data = open(path, 'rb').read()
            if len(data) != a['size']:
                raise ValueError('%d bytes, the manifest says %d' % (len(data), a['size']))
            check_file(path, data)
        except Exception as e:  # every problem is reported, not only the first
            problems.append('%s: %s' % (a['file'], e))
        top = a['file'].split('/')[0]
        seen[top] = seen.get(top, 0) + 1
        if not a['path'].startswith('/'):
            problems.append('%s: path %r is not a JSON pointer' % (a['file'], a['path']))
    if model is not None:
        expected = model_counts(json.load(open(model)))
        if expected != {k: v for k, v in seen.items() if k in expected or k not in ('textures',)}:
            problems.append('counts: the model holds %s, extract wrote %s' % (expected, seen))
    if csv_rows is not None:
        rows = len(open(os.path.join(folder, 'objects/objects.csv')).read().splitlines()) - 1
        if rows != csv_rows:
            problems.append('objects.csv: %d rows, the model has %d objects' % (rows, csv_rows))
    for p in problems:
        print('FAIL %s: %s' % (folder, p))
    return problems


def batch(listing):
    """Every folder of LISTING (a line each: DIR, then --model DUMP or --expect-csv-rows N, tab
    separated) checked in one python (not one a file: its start-ups were most of the assets
    test's CPU), and for each its put-back patch written beside it: DIR/back.patch.json, every
    replaceable asset as a {"$file"} value, and DIR/first.tsv, the first one's path, file and
    the count (empty without one). Exit: the number of folders with problems (at most 100)."""
    failed = 0
    for line in open(listing).read().splitlines():
        folder, option, value = line.split('\t')
        failed += bool(check_folder(folder, value if option == '--model' else None,
                                    int(value) if option == '--expect-csv-rows' else None))
        assets = [a for a in json.load(open(os.path.join(folder, 'manifest.json')))['assets'] if a['replaceable']]
        with open(os.path.join(folder, 'back.patch.json'), 'w') as f:
            json.dump([{'op': 'replace', 'path': a['path'], 'value': {'$file': a['file']}} for a in assets], f)
        with open(os.path.join(folder, 'first.tsv'), 'w') as f:
            if assets:
                f.write('%s\t%s\t%d\n' % (assets[0]['path'], assets[0]['file'], len(assets)))
    return min(failed, 100)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
