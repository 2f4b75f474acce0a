"""LZO1X decompression in plain Python: an independent reader of GBX bodies for tests (the
project reads them with liblzo2; a test must not check the project's bytes with the project)."""


def decompress(src, dst_len):
    out = bytearray()
    ip = 0

    def run_length(t, bits):
        nonlocal ip
        if t == 0:
            while src[ip] == 0:
                t += 255
                ip += 1
            t += bits + src[ip]
            ip += 1
        return t

    def copy_match(dist, length):
        start = len(out) - dist
        if start < 0:
            raise ValueError("LZO match before the start of the output")
        # a match longer than its distance repeats the last `dist` bytes (byte by byte, each copied
        # byte is read again): the same bytes as one slice repeated, without a loop a byte
        if length <= dist:
            out.extend(out[start:start + length])
        else:
            out.extend((out[start:] * (length // dist + 1))[:length])

    state = "start"
    t = 0
    while True:
        if state == "start":
            t = src[ip]
            if t > 17:
                ip += 1
                t -= 17
                if t < 4:
                    state = "match_next"
                    continue
                out += src[ip:ip + t]
                ip += t
                state = "first_literal_run"
                continue
            state = "loop"
        if state == "loop":
            t = src[ip]
            ip += 1
            if t >= 16:
                state = "match"
                continue
            t = run_length(t, 15)
            out += src[ip:ip + t + 3]
            ip += t + 3
            state = "first_literal_run"
        if state == "first_literal_run":
            t = src[ip]
            ip += 1
            if t >= 16:
                state = "match"
                continue
            dist = 1 + 0x0800 + (t >> 2) + (src[ip] << 2)
            ip += 1
            copy_match(dist, 3)
            state = "match_done"
        if state == "match":
            if t >= 64:
                dist = 1 + ((t >> 2) & 7) + (src[ip] << 3)
                ip += 1
                copy_match(dist, (t >> 5) - 1 + 2)
            elif t >= 32:
                t = run_length(t & 31, 31)
                dist = 1 + ((src[ip] | (src[ip + 1] << 8)) >> 2)
                ip += 2
                copy_match(dist, t + 2)
            elif t >= 16:
                dist = (t & 8) << 11
                t = run_length(t & 7, 7)
                dist += (src[ip] | (src[ip + 1] << 8)) >> 2
                ip += 2
                if dist == 0:
                    break  # end of stream
                copy_match(dist + 0x4000, t + 2)
            else:
                dist = 1 + (t >> 2) + (src[ip] << 2)
                ip += 1
                copy_match(dist, 2)
            state = "match_done"
        if state == "match_done":
            t = src[ip - 2] & 3
            if t == 0:
                state = "loop"
                continue
            state = "match_next"
        if state == "match_next":
            out += src[ip:ip + t]
            ip += t
            t = src[ip]
            ip += 1
            state = "match"
    if len(out) != dst_len:
        raise ValueError("LZO body decodes to %d bytes, the header says %d" % (len(out), dst_len))
    return bytes(out)
