"""An independent reading of data.win bytes for the tests (not the project's reader): chunks, the
root bytecode blobs of CODE and the instruction walk (bytecode >= 15, docs/formats/datawin.md
"Bytecode instructions"). The shell tests in tests/datawin find it through PYTHONPATH (set by common.sh)."""
import struct


def u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def i32(b, o):
    return struct.unpack_from("<i", b, o)[0]


def chunks(b):
    """{chunk id: (content offset, content size)}."""
    pos, found = 8, {}
    while pos < len(b):
        found[b[pos:pos + 4].decode()] = (pos + 8, u32(b, pos + 4))
        pos += 8 + u32(b, pos + 4)
    return found


def root_blobs(b, c):
    """{address: length} of the bytecode blobs CODE's entries point at (empty roots share the
    next one's address: the longest length wins)."""
    code = c["CODE"][0]
    blobs = {}
    for k in range(u32(b, code)):
        header = u32(b, code + 4 + 4 * k)
        at = header + 12 + i32(b, header + 12)
        blobs[at] = max(blobs.get(at, 0), u32(b, header + 4))
    return blobs


PUSH_EXTRA_WORDS = {0: 2, 3: 2, 1: 1, 2: 1, 4: 1, 5: 1, 6: 1, 15: 0}  # by the push's data type


def instructions(b, at, length):
    """(position, opcode, data type, extra words, names a variable or function) of every
    instruction of the blob at `at`; asserts the blob walks to its end."""
    pos = at
    while pos < at + length:
        word = u32(b, pos)
        op, t = word >> 24, word >> 16 & 15
        if op in (0xC0, 0xC1, 0xC2, 0xC3, 0x84):
            extra, reference = PUSH_EXTRA_WORDS[t], t in (2, 5)
        elif op in (0x45, 0xD9, 0xFF):
            extra, reference = {0x45: 0 if t == 15 else 1, 0xD9: 1, 0xFF: 1 if t == 2 else 0}[op], True
        else:
            extra, reference = 0, False
        yield pos, op, t, extra, reference
        pos += 4 + 4 * extra
    assert pos == at + length, "a blob does not walk"
