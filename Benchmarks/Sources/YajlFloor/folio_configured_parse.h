// One parse with YAJL set up the way FolioJSON's JSONReader sets it up.
#ifndef FOLIO_CONFIGURED_PARSE_H
#define FOLIO_CONFIGURED_PARSE_H

#include <stddef.h>
#include <stdint.h>
#include <yajl/yajl_parse.h>

/// Allocates a parser, configures it like FolioJSON's reader (strings are not
/// UTF-8-validated by YAJL, since FolioJSON validates them in Swift), parses the
/// whole document, and frees the parser. Returns 1 when the document is valid JSON.
int folio_configured_parse(const yajl_callbacks *callbacks, void *context, const uint8_t *text, size_t length);

#endif
