// The C floors of FolioJSON's design: YAJL with nothing on top.
//
// FolioJSON reads through YAJL's parser and writes through YAJL's generator, so
// the same YAJL calls with no Swift work around them are the fastest that design
// can go. Both are configured exactly as FolioJSON configures YAJL. This header
// includes no YAJL header, so it never clashes with the root package's CYajl module.
#ifndef YAJL_FLOOR_H
#define YAJL_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/// Parses one document with callbacks that only return 1 (the parse floor).
/// Returns 1 when the document is valid JSON, else 0.
int yajl_floor_parse(const uint8_t *text, size_t length);

/// Counts the values in a document (every scalar and every container, keys excluded),
/// for checking other parsers' results outside timed code. Returns -1 for invalid JSON.
int64_t yajl_floor_count_values(const uint8_t *text, size_t length);

/// A document held as a flat list of generator calls, with its keys, strings and
/// pre-formatted number text copied into one arena (the write floor's input).
typedef struct yajl_floor_tape yajl_floor_tape;

/// Records the tape of a document by parsing it; `NULL` for invalid JSON or out of memory.
/// Numbers keep the text they have in the document, so they are formatted by the caller.
yajl_floor_tape *yajl_floor_tape_create(const uint8_t *text, size_t length);

/// Frees a tape (`NULL` is allowed).
void yajl_floor_tape_free(yajl_floor_tape *tape);

/// Replays a tape through a fresh `yajl_gen` configured like FolioJSON's writer (the
/// write floor) and copies the text into `output`. Returns the text's length, or -1
/// when the generator refuses a call or the text does not fit in `capacity` bytes.
int64_t yajl_floor_generate(const yajl_floor_tape *tape, uint8_t *output, size_t capacity);

#endif
