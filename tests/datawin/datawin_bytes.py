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


def operands(b, c):
    """The addresses of every operand word that may be a variable or function occurrence."""
    found = set()
    for at, length in root_blobs(b, c).items():
        for pos, op, t, extra, reference in instructions(b, at, length):
            if extra and reference:
                found.add(pos + 4)
    return found


def chains(path):
    """An independent walk of a data.win's bytes (bytecode >= 15): {("variable"|"function", index):
    (count, name text)} for every VARI/FUNC entry with occurrences, each chain walked over operand
    words to an end that names the entity's name; also the first occurrences and CODE's offset."""
    b = open(path, "rb").read()
    c = chunks(b)
    ops = operands(b, c)
    strg = c["STRG"][0]
    def text(address):
        return b[address:address + u32(b, address - 4)]
    def string(index):
        return text(u32(b, strg + 4 + 4 * index) + 4)
    result, firsts = {}, {}
    def walk(kind, k, name, count, first):
        p = first if first in ops else first + 4
        firsts[(kind, k)] = p
        seen = [p]
        for _ in range(count - 1):
            p += u32(b, p) & 0x07FFFFFF
            assert p in ops, "%s %d: occurrence at 0x%x is not an operand" % (kind, k, p)
            seen.append(p)
        assert len(set(seen)) == count
        end = string(u32(b, p) & 0xFFFFFF)
        assert end == text(name), "%s %d: chain ends on %r, not on its name %r" % (kind, k, end, text(name))
        result[(kind, k)] = (count, end.decode("utf-8", "replace"))
    v, vl = c["VARI"]
    for k in range((vl - 12) // 20):
        name, _, _, count, first = struct.unpack_from("<Iiiii", b, v + 12 + 20 * k)
        if count > 0:
            walk("variable", k, name, count, first)
        else:
            assert count == 0 and first == -1
    f = c["FUNC"][0]
    for k in range(u32(b, f)):
        name, count, first = struct.unpack_from("<Iii", b, f + 4 + 12 * k)
        if count > 0:
            walk("function", k, name, count, first)
        else:
            assert count == 0 and first == -1
    return result, firsts, c["CODE"][0]
