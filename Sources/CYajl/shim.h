// The C surface of YAJL that Swift sees.
//
// YAJL configures parsers and generators through variadic functions
// (`yajl_config`, `yajl_gen_config`), which Swift cannot call. Each option we
// use gets a fixed-arity `static inline` wrapper here instead.
#ifndef FOLIO_CYAJL_SHIM_H
#define FOLIO_CYAJL_SHIM_H

#include <yajl/yajl_parse.h>
#include <yajl/yajl_gen.h>

/// Turns a boolean parser option (comments, validation, trailing garbage...) on or off.
static inline int folio_yajl_config_flag(yajl_handle handle, yajl_option option, int enabled) {
    return yajl_config(handle, option, enabled);
}

/// Turns a boolean generator option (beautify, UTF-8 validation, solidus escaping) on or off.
static inline int folio_yajl_gen_config_flag(yajl_gen generator, yajl_gen_option option, int enabled) {
    return yajl_gen_config(generator, option, enabled);
}

/// Makes the generator indent by two spaces per nesting level when beautifying.
/// YAJL keeps the pointer it is given, not a copy, so the indent must be a C
/// string literal with static storage; a string passed in from Swift would dangle.
static inline int folio_yajl_gen_config_two_space_indent(yajl_gen generator) {
    return yajl_gen_config(generator, yajl_gen_indent_string, "  ");
}

#endif
