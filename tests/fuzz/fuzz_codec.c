/*
 * libFuzzer harness for one decoder (FUZZ_CODEC, set per executable by CMake). The first four
 * bytes declare the content size (little endian, capped), the rest is the encoded stream.
 * When decoding succeeds, the content is encoded again and must decode back to itself: the
 * writers' encoders are checked against their own decoders on whatever the fuzzer finds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/archive/codec.h"
#include "writers/lzss.h"
#include "writers/szdd.h"

#ifndef FUZZ_CODEC
#error "FUZZ_CODEC must name a codec"
#endif

static const rb_codec *codec_by_name(const char *name)
{
    const rb_codec *all[] = {&rb_codec_lzo1x, &rb_codec_zlib, &rb_codec_lzss_spz, &rb_codec_szdd};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(all[i]->name, name) == 0) return all[i];
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const rb_codec *codec = codec_by_name(FUZZ_CODEC);
    if (!codec) abort();
    if (size < 4) return 0;
    size_t declared = (size_t)(data[0] | data[1] << 8 | data[2] << 16 | (uint32_t)data[3] << 24) & 0xFFF; /* 4 KiB keeps each run cheap: the encoders are re-run on every input */
    uint8_t *content = malloc(declared ? declared : 1);
    if (!content) return 0;
    char why[200] = "";
    if (codec->decode(data + 4, size - 4, content, declared, why, sizeof why) != 0) {
        if (!why[0]) abort(); /* a refusal must say why */
        free(content);
        return 0;
    }
    rb_buf encoded;
    rb_buf_init(&encoded);
    if (codec->encode(content, declared, &encoded, why, sizeof why) != 0) abort();
    uint8_t *again = malloc(declared ? declared : 1);
    if (!again) abort();
    if (codec->decode(encoded.data, encoded.size, again, declared, why, sizeof why) != 0) abort();
    if (declared && memcmp(content, again, declared) != 0) abort();
    free(again);
    free(content);
    rb_buf_free(&encoded);
    return 0;
}
