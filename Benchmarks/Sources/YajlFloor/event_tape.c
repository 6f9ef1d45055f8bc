// The write floor: a document as a flat list of generator calls, replayed through yajl_gen.
#include "YajlFloor.h"
#include "folio_configured_parse.h"

#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_gen.h>

typedef enum {
    tape_null,
    tape_false,
    tape_true,
    tape_number,  // pre-formatted text, passed to yajl_gen_number
    tape_string,  // a key or a string value, passed to yajl_gen_string
    tape_map_open,
    tape_map_close,
    tape_array_open,
    tape_array_close,
} tape_kind;

typedef struct {
    tape_kind kind;
    size_t offset;  // into the arena, for numbers and strings
    size_t length;
} tape_event;

struct yajl_floor_tape {
    tape_event *events;
    size_t count;
    size_t capacity;
    unsigned char *arena;
    size_t arena_length;
    size_t arena_capacity;
};

// Grows a buffer to hold at least `needed` elements; returns 0 when out of memory.
static int reserve(void **buffer, size_t *capacity, size_t needed, size_t element_size) {
    if (needed <= *capacity) return 1;
    size_t grown = *capacity < 64 ? 64 : *capacity * 2;
    if (grown < needed) grown = needed;
    void *moved = realloc(*buffer, grown * element_size);
    if (moved == NULL) return 0;
    *buffer = moved;
    *capacity = grown;
    return 1;
}

static int append(yajl_floor_tape *tape, tape_kind kind, const void *text, size_t length) {
    if (!reserve((void **)&tape->events, &tape->capacity, tape->count + 1, sizeof(tape_event))) return 0;
    if (!reserve((void **)&tape->arena, &tape->arena_capacity, tape->arena_length + length, 1)) return 0;
    if (length > 0) memcpy(tape->arena + tape->arena_length, text, length);
    tape->events[tape->count++] = (tape_event){kind, tape->arena_length, length};
    tape->arena_length += length;
    return 1;
}

static int record_null(void *tape) { return append(tape, tape_null, NULL, 0); }

static int record_boolean(void *tape, int value) { return append(tape, value ? tape_true : tape_false, NULL, 0); }

static int record_number(void *tape, const char *text, size_t length) { return append(tape, tape_number, text, length); }

static int record_string(void *tape, const unsigned char *bytes, size_t length) {
    return append(tape, tape_string, bytes, length);
}

static int record_map_open(void *tape) { return append(tape, tape_map_open, NULL, 0); }

static int record_array_open(void *tape) { return append(tape, tape_array_open, NULL, 0); }

// FolioJSON writes an empty container as `{}` or `[]` through yajl_gen_number (the
// generator would beautify it across lines), so the tape does the same.
static int record_close(yajl_floor_tape *tape, tape_kind open, tape_kind close, const char *empty) {
    if (tape->count > 0 && tape->events[tape->count - 1].kind == open) {
        tape->count -= 1;
        return append(tape, tape_number, empty, 2);
    }
    return append(tape, close, NULL, 0);
}

static int record_map_close(void *tape) { return record_close(tape, tape_map_open, tape_map_close, "{}"); }

static int record_array_close(void *tape) { return record_close(tape, tape_array_open, tape_array_close, "[]"); }

static const yajl_callbacks recording = {
    .yajl_null = record_null,
    .yajl_boolean = record_boolean,
    .yajl_number = record_number,
    .yajl_string = record_string,
    .yajl_start_map = record_map_open,
    .yajl_map_key = record_string,
    .yajl_end_map = record_map_close,
    .yajl_start_array = record_array_open,
    .yajl_end_array = record_array_close,
};

yajl_floor_tape *yajl_floor_tape_create(const uint8_t *text, size_t length) {
    yajl_floor_tape *tape = calloc(1, sizeof(yajl_floor_tape));
    if (tape == NULL) return NULL;
    if (!folio_configured_parse(&recording, tape, text, length)) {
        yajl_floor_tape_free(tape);
        return NULL;
    }
    return tape;
}

void yajl_floor_tape_free(yajl_floor_tape *tape) {
    if (tape == NULL) return;
    free(tape->events);
    free(tape->arena);
    free(tape);
}

static yajl_gen_status replay(yajl_gen generator, const yajl_floor_tape *tape, const tape_event *event) {
    const unsigned char *text = tape->arena + event->offset;
    switch (event->kind) {
    case tape_null: return yajl_gen_null(generator);
    case tape_false: return yajl_gen_bool(generator, 0);
    case tape_true: return yajl_gen_bool(generator, 1);
    case tape_number: return yajl_gen_number(generator, (const char *)text, event->length);
    case tape_string: return yajl_gen_string(generator, text, event->length);
    case tape_map_open: return yajl_gen_map_open(generator);
    case tape_map_close: return yajl_gen_map_close(generator);
    case tape_array_open: return yajl_gen_array_open(generator);
    case tape_array_close: return yajl_gen_array_close(generator);
    }
    return yajl_gen_invalid_string;
}

int64_t yajl_floor_generate(const yajl_floor_tape *tape, uint8_t *output, size_t capacity) {
    yajl_gen generator = yajl_gen_alloc(NULL);
    if (generator == NULL) return -1;
    yajl_gen_config(generator, yajl_gen_beautify, 1);
    yajl_gen_config(generator, yajl_gen_validate_utf8, 1);
    yajl_gen_config(generator, yajl_gen_indent_string, "  ");

    yajl_gen_status status = yajl_gen_status_ok;
    for (size_t index = 0; index < tape->count && status == yajl_gen_status_ok; index++) {
        status = replay(generator, tape, &tape->events[index]);
    }
    const unsigned char *text = NULL;
    size_t length = 0;
    int64_t result = -1;
    if (status == yajl_gen_status_ok && yajl_gen_get_buf(generator, &text, &length) == yajl_gen_status_ok
        && length <= capacity) {
        memcpy(output, text, length);
        result = (int64_t)length;
    }
    yajl_gen_free(generator);
    return result;
}
