#include "folio_configured_parse.h"

int folio_configured_parse(const yajl_callbacks *callbacks, void *context, const uint8_t *text, size_t length) {
    yajl_handle handle = yajl_alloc(callbacks, NULL, context);
    if (handle == NULL) return 0;
    yajl_config(handle, yajl_dont_validate_strings, 1);
    yajl_status status = yajl_parse(handle, length == 0 ? (const uint8_t *)"" : text, length);
    if (status == yajl_status_ok) status = yajl_complete_parse(handle);
    yajl_free(handle);
    return status == yajl_status_ok;
}
