import Foundation
import Locking

/// Where a command writes: results on standard output, everything meant for the person at the
/// terminal (prompts, warnings, errors, the status line) on standard error.
final class Console: Sendable {
    /// Standard error is a terminal: status lines and colours make sense there, not on a pipe.
    let isInteractive: Bool
    private let lock = Locked(())

    init(isInteractive: Bool = isatty(STDERR_FILENO) == 1) {
        self.isInteractive = isInteractive
    }

    /// Writes a line of results; control characters in it are dropped (``TerminalText``).
    func out(_ text: String) { write(TerminalText.safe(text) + "\n", to: STDOUT_FILENO) }

    /// Writes a line for the person at the terminal; control characters in it are dropped (``TerminalText``).
    func err(_ text: String) { write(TerminalText.safe(text) + "\n", to: STDERR_FILENO) }

    /// Writes to standard error without a newline, as given: the status line's own escape sequences and prompts.
    func errRaw(_ text: String) { write(text, to: STDERR_FILENO) }

    private func write(_ text: String, to descriptor: Int32) {
        lock.withLock { _ in
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
