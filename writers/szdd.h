/*
 * SZDD ("MS COMPRESS" 2.x, read by the Win32 LZ API): a 14-byte header
 * `"SZDD" 88 F0 27 33`, mode 'A', the missing last character of the file name, u32 size,
 * then an LZSS stream (writers/lzss.h) with a space-filled window starting at 0xFF0 and
 * matches of 3..16 bytes. The codec is the bare stream; the header belongs to the format.
 */
#ifndef RB_SZDD_H
#define RB_SZDD_H
#include "writers/lzss.h"

#define RB_SZDD_MAGIC "SZDD\x88\xF0\x27\x33"
extern const rb_lzss_params rb_lzss_szdd_params;
extern const rb_codec rb_codec_szdd;
#endif
