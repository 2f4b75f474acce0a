#!/usr/bin/env python3
"""Independent check of a zlib stream inside a GBX file, outside rebyte: decompress the bytes
the dump says the stream occupies and compare little-endian i32 fields of the content.
Usage: zlib_check.py DUMP.json FILE JSON_POINTER_TO_STREAM_RECORD OFFSET=VALUE...
Exit 0 when every field matches, 1 otherwise."""
import base64, json, struct, sys, zlib

def main():
    dump, path, pointer = sys.argv[1], sys.argv[2], sys.argv[3]
    node = json.load(open(dump))
    for part in pointer.strip('/').split('/'):
        node = node[int(part)] if isinstance(node, list) else node[part]
    original = node['$stream']['original']
    if '$base64' in original:
        encoded = base64.b64decode(original['$base64'])
    else:
        blob = original['$blob']
        if blob['section'] != 'file':
            print('stream is not stored plainly in the file (section %s)' % blob['section'])
            return 1
        encoded = open(path, 'rb').read()[blob['offset']:blob['offset'] + blob['size']]
    content = zlib.decompress(encoded)
    if len(content) != node['$stream']['content_size']:
        print('decompressed %d bytes, dump says %d' % (len(content), node['$stream']['content_size']))
        return 1
    for check in sys.argv[4:]:
        offset, value = (int(x, 0) for x in check.split('='))
        got = struct.unpack_from('<i', content, offset)[0]
        if got != value:
            print('content @%d: %d, expected %d' % (offset, got, value))
            return 1
    return 0

sys.exit(main())
