#include "CThreadSanitizerHooks.h"

// Whether this translation unit is compiled with ThreadSanitizer (`swift build --sanitize=thread` passes
// -fsanitize=thread to C targets too): clang says so through __has_feature, GCC through __SANITIZE_THREAD__.
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MSAL_THREAD_SANITIZER 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define MSAL_THREAD_SANITIZER 1
#endif

#if defined(MSAL_THREAD_SANITIZER)

// ThreadSanitizer's annotation interface (compiler-rt's sanitizer/tsan_interface.h). An instrumented build
// links the TSan runtime, which defines these on every platform, so plain references resolve; no weak symbols.
extern void __tsan_acquire(void *address);
extern void __tsan_release(void *address);

void msal_tsan_acquire(void *address) { __tsan_acquire(address); }

void msal_tsan_release(void *address) { __tsan_release(address); }

#else

void msal_tsan_acquire(void *address) { (void)address; }

void msal_tsan_release(void *address) { (void)address; }

#endif
