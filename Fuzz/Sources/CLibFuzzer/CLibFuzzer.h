// libFuzzer's entry point for programs with their own `main`: it parses the command
// line as libFuzzer's `main` does and fuzzes `test`. The harnesses link libFuzzer with
// `-sanitize=fuzzer`; see Package.swift for why they have a `main` of their own.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
