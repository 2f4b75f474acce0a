/*
 * What kind of payload a run of bytes the model does not interpret is: an image, an archive,
 * audio, a compressed stream or unknown. Coverage reports opaque bytes and blobs by kind, so a
 * JPEG thumbnail or an embedded zip is not mistaken for bytes nobody understands
 * (docs/api.md "Coverage by kind"). The kind comes from the content's signature only: a
 * signature is a claim, so the checks that are cheap to make (zlib's header checksum, RIFF's
 * form type) are made, and anything else is unknown.
 */
#include "core/model/doc_state.h"
#include <string.h>

static int starts(const uint8_t *d, size_t n, const char *magic, size_t len)
{
    return n >= len && memcmp(d, magic, len) == 0;
}

/* RIFF containers say what they hold at byte 8: WEBP is an image, WAVE audio */
static int riff_form(const uint8_t *d, size_t n, const char *form)
{
    return starts(d, n, "RIFF", 4) && n >= 12 && memcmp(d + 8, form, 4) == 0;
}

/* a zlib header: deflate with a 32 KiB window (0x78, what zlib writes; smaller windows are rare
 * and, as two bytes, too easily matched by chance), no preset dictionary, the header checksum
 * (RFC 1950: CMF * 256 + FLG is a multiple of 31), and a first deflate block of a defined type
 * (RFC 1951: type 3 is reserved); at least the header, one byte of data and the Adler-32 */
static int zlib_header(const uint8_t *d, size_t n)
{
    return n >= 7 && d[0] == 0x78 && !(d[1] & 0x20) && (0x78u * 256 + d[1]) % 31 == 0 && ((d[2] >> 1) & 3) != 3;
}

rb_payload_kind rb_payload_kind_of(const uint8_t *d, size_t n)
{
    if (!d) return RB_PAYLOAD_UNKNOWN;
    if (starts(d, n, "\xFF\xD8\xFF", 3) || starts(d, n, "\x89PNG\r\n\x1A\n", 8) || riff_form(d, n, "WEBP") ||
        starts(d, n, "DDS ", 4) || starts(d, n, "GIF87a", 6) || starts(d, n, "GIF89a", 6))
        return RB_PAYLOAD_IMAGE;
    if (starts(d, n, "PK\x03\x04", 4) || starts(d, n, "PK\x05\x06", 4) || starts(d, n, "7z\xBC\xAF\x27\x1C", 6) ||
        starts(d, n, "Rar!\x1A\x07", 6))
        return RB_PAYLOAD_ARCHIVE;
    if (starts(d, n, "OggS", 4) || riff_form(d, n, "WAVE") || starts(d, n, "fLaC", 4) || starts(d, n, "ID3", 3))
        return RB_PAYLOAD_AUDIO;
    if (starts(d, n, "\x1F\x8B\x08", 3) || starts(d, n, "\x28\xB5\x2F\xFD", 4) || starts(d, n, "BZh", 3) ||
        starts(d, n, "\xFD" "7zXZ\x00", 6) || zlib_header(d, n))
        return RB_PAYLOAD_COMPRESSED;
    return RB_PAYLOAD_UNKNOWN;
}

const char *rb_payload_kind_name(rb_payload_kind kind)
{
    static const char *const names[RB_PAYLOAD_KINDS] = {"unknown", "image", "archive", "audio", "compressed"};
    return (unsigned)kind < RB_PAYLOAD_KINDS ? names[kind] : "unknown";
}
