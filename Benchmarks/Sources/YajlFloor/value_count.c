// Value counting, the reference every parser's result is checked against.
#include "YajlFloor.h"
#include "folio_configured_parse.h"

static int count_value(void *context) {
    ++*(int64_t *)context;
    return 1;
}

static int count_boolean(void *context, int value) {
    (void)value;
    return count_value(context);
}

static int count_number(void *context, const char *text, size_t length) {
    (void)text;
    (void)length;
    return count_value(context);
}

static int count_string(void *context, const unsigned char *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return count_value(context);
}

static int skip_key(void *context, const unsigned char *bytes, size_t length) {
    (void)context;
    (void)bytes;
    (void)length;
    return 1;
}

static int skip_end(void *context) {
    (void)context;
    return 1;
}

static const yajl_callbacks counting = {
    .yajl_null = count_value,
    .yajl_boolean = count_boolean,
    .yajl_number = count_number,
    .yajl_string = count_string,
    .yajl_start_map = count_value,
    .yajl_map_key = skip_key,
    .yajl_end_map = skip_end,
    .yajl_start_array = count_value,
    .yajl_end_array = skip_end,
};

int64_t yajl_floor_count_values(const uint8_t *text, size_t length) {
    int64_t count = 0;
    return folio_configured_parse(&counting, &count, text, length) ? count : -1;
}
