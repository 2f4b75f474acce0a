/*
 * Spellings of the text encoding (text GBX, format byte 'T'): every primitive value is one line
 * ended by CR LF. The archive (archive.c) decides where lines go; this file only spells values
 * and reads them back, so that every spelling parses to the bits it was made from.
 *
 *   integers   decimal ("-5" for signed wires); hex wires (class, chunk ids) 2*width hex digits
 *              ("03043002"); a char-shown u8 as the character when it is printable ("C")
 *   booleans   "True" / "False" for 0 / 1, the decimal raw value otherwise
 *   floats     the shortest decimal that reads back to the same bits ("0.5", "90.0"); "NaN",
 *              "NaN:0x7fc00001", "Infinity", "-Infinity", "-0.0" (the spellings of the JSON view)
 *   strings    the line itself, when it is valid UTF-8 without control characters and does not
 *              start with '"' or "0x"; else quoted: '"' + escapes \\ \" \r \n \t \xHH + '"'
 *   bytes      "0x" + two lowercase hex digits per byte (blobs, opaque remainders, streams)
 */
#ifndef RB_ARCHIVE_TEXT_H
#define RB_ARCHIVE_TEXT_H
#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

enum { RB_TEXT_NUMBER_MAX = 48 }; /* room for any spelled number, with its terminator */

/* Integers by wire (width, signedness, hex, char). Returns the length written to out. */
size_t rb_text_spell_uint(char *out, uint64_t bits, unsigned wire);
int rb_text_parse_uint(const uint8_t *line, size_t len, unsigned wire, uint64_t *bits);
/* A fixed-width decimal (or hex for hex wires) for a value patched later: its digit count. */
size_t rb_text_slot_digits(unsigned wire);
void rb_text_spell_padded(char *out, uint64_t value, unsigned wire); /* exactly slot_digits chars */

size_t rb_text_spell_bool(char *out, uint64_t raw);
int rb_text_parse_bool(const uint8_t *line, size_t len, unsigned width, uint64_t *raw);

size_t rb_text_spell_float(char *out, uint64_t bits, unsigned width);
int rb_text_parse_float(const uint8_t *line, size_t len, unsigned width, uint64_t *bits);

/* Strings: the line's spelling; `plain` says whether the line is the bytes themselves. */
int rb_text_string_is_plain(const uint8_t *data, size_t size);
void rb_text_spell_string(rb_buf *out, const uint8_t *data, size_t size);
/* A quoted line's bytes into out (room for len bytes). 0 when the escapes are malformed. */
int rb_text_unquote(const uint8_t *line, size_t len, uint8_t *out, size_t *size);
int rb_text_line_is_bytes(const uint8_t *line, size_t len); /* starts with "0x" */

/* Two lowercase hex digits per byte (the caller puts the "0x" before the first). */
void rb_text_hex_digits(rb_buf *out, const uint8_t *data, size_t size);
/* A "0x..." line's bytes into out (room for (len - 2) / 2 bytes). 0 when it is not one. */
int rb_text_parse_hex(const uint8_t *line, size_t len, uint8_t *out, size_t *size);

/* The u32 a peeking description would see at a line: 8 hex digits as hex, a decimal, or the
 * first four bytes of a "0x" line (little-endian, as they were in the binary file). */
int rb_text_peek_u32(const uint8_t *line, size_t len, uint32_t *value);
#endif
