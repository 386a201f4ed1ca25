#ifndef C_THREAD_SANITIZER_HOOKS_H
#define C_THREAD_SANITIZER_HOOKS_H

/// Tells ThreadSanitizer that the calling thread acquired the synchronisation object at `address`.
/// Does nothing unless built with ThreadSanitizer (`--sanitize=thread`).
void msal_tsan_acquire(void *address);

/// Tells ThreadSanitizer that the calling thread releases the synchronisation object at `address`.
/// Does nothing unless built with ThreadSanitizer (`--sanitize=thread`).
void msal_tsan_release(void *address);

#endif
