#include "CThreadSanitizerHooks.h"

// ThreadSanitizer's annotation interface (compiler-rt's sanitizer/tsan_interface.h). The references are
// weak: they resolve only when the TSan runtime is linked in, and are null otherwise.
extern void __tsan_acquire(void *address) __attribute__((weak));
extern void __tsan_release(void *address) __attribute__((weak));

void msal_tsan_acquire(void *address) {
    if (__tsan_acquire) __tsan_acquire(address);
}

void msal_tsan_release(void *address) {
    if (__tsan_release) __tsan_release(address);
}
