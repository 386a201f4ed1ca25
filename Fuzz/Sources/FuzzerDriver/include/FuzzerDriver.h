#ifndef FUZZER_DRIVER_H
#define FUZZER_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for programs with a `main` of their own (compiler-rt's FuzzerInterface.h).
/// SwiftPM gives every executable a `main` (on Linux it renames the module's entry point and links
/// `main` to it), so the fuzz targets start libFuzzer through this instead of libFuzzer's `main`.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
