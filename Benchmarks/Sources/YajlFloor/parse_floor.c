// The parse floor: YAJL's tokenizer and unescaping with callbacks that do nothing.
#include "YajlFloor.h"
#include "folio_configured_parse.h"

static int ignore_event(void *context) {
    (void)context;
    return 1;
}

static int ignore_boolean(void *context, int value) {
    (void)context;
    (void)value;
    return 1;
}

static int ignore_text(void *context, const char *text, size_t length) {
    (void)context;
    (void)text;
    (void)length;
    return 1;
}

static int ignore_bytes(void *context, const unsigned char *bytes, size_t length) {
    (void)context;
    (void)bytes;
    (void)length;
    return 1;
}

// Numbers go to `yajl_number` as FolioJSON's do, so YAJL converts none of them.
static const yajl_callbacks ignoring = {
    .yajl_null = ignore_event,
    .yajl_boolean = ignore_boolean,
    .yajl_number = ignore_text,
    .yajl_string = ignore_bytes,
    .yajl_start_map = ignore_event,
    .yajl_map_key = ignore_bytes,
    .yajl_end_map = ignore_event,
    .yajl_start_array = ignore_event,
    .yajl_end_array = ignore_event,
};

int yajl_floor_parse(const uint8_t *text, size_t length) {
    return folio_configured_parse(&ignoring, NULL, text, length);
}
