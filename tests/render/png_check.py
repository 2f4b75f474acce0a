"""An independent PNG reader for the render tests: chunks and their CRCs, the IHDR, the zlib
stream of the IDAT chunks, and (full=True) every row unfiltered into RGBA pixels. It shares no
code with rebyte's writer (libpng): the standard library's zlib and the PNG specification."""
import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(data, full=False):
    """(width, height, pixels or None); raises ValueError naming what is wrong."""
    if not data.startswith(SIGNATURE):
        raise ValueError("no PNG signature")
    at, idat, header, ended = 8, [], None, False
    while at < len(data):
        if at + 8 > len(data):
            raise ValueError("chunk header cut at %d" % at)
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if len(body) != length or at + 12 + length > len(data):
            raise ValueError("chunk %r cut" % kind)
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError("chunk %r: CRC mismatch" % kind)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            ended = True
        at += 12 + length
    if not header or not ended or not idat:
        raise ValueError("IHDR, IDAT or IEND missing")
    width, height, depth, colour, _, _, interlace = header
    channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError("unexpected PNG layout %r" % (header,))
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise ValueError("%d bytes of rows, %d expected" % (len(raw), height * (stride + 1)))
    if any(raw[r * (stride + 1)] > 4 for r in range(height)):
        raise ValueError("a row filter is not 0-4")
    if not full:
        return width, height, None
    return width, height, unfilter(raw, width, height, channels)


def unfilter(raw, width, height, channels):
    stride = width * channels
    out, previous = [], bytearray(stride)
    for r in range(height):
        kind = raw[r * (stride + 1)]
        row = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + left) & 0xFF
            elif kind == 2:
                row[i] = (row[i] + up) & 0xFF
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        out.append(bytes(row))
        previous = row
    return out
