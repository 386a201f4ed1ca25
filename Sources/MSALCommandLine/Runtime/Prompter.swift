import Foundation
import Synchronization

/// Asks the person at the terminal for a line: the prompt on standard error, the answer from standard
/// input. Secrets are read without echo on a terminal; from a pipe, lines are read as they come.
struct Prompter: Sendable {
    let console: Console
    /// Standard input is a terminal.
    let isTerminal: Bool

    init(console: Console, isTerminal: Bool = isatty(STDIN_FILENO) == 1) {
        self.console = console
        self.isTerminal = isTerminal
    }

    /// - Throws: ``UsageError`` when standard input ends; `CancellationError` on Ctrl-C.
    func line(_ prompt: String) async throws -> String {
        try await read(prompt, secret: false)
    }

    /// Like ``line(_:)`` without echoing what is typed on a terminal.
    func secret(_ prompt: String) async throws -> String {
        try await read(prompt, secret: true)
    }

    private func read(_ prompt: String, secret: Bool) async throws -> String {
        console.errRaw(prompt)
        let hideInput = secret && isTerminal
        let answer = try await Self.readLineOffThePool(hidingInput: hideInput)
        if hideInput { console.err("") }
        guard let answer else { throw UsageError("Standard input ended while waiting for: \(prompt.trimmingCharacters(in: .whitespaces))") }
        return answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Reads one line on a thread of its own (a blocking read must not hold a cooperative thread);
    /// cancellation returns at once and leaves the read to end with the process.
    private static func readLineOffThePool(hidingInput: Bool) async throws -> String? {
        let once = Mutex<CheckedContinuation<String?, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.withLock { $0 = continuation }
                Thread {
                    let line = hidingInput ? readWithoutEcho() : Swift.readLine(strippingNewline: true)
                    once.withLock { $0.take() }?.resume(returning: line)
                }.start()
            }
        } onCancel: {
            once.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    private static func readWithoutEcho() -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return Swift.readLine(strippingNewline: true) }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
        return Swift.readLine(strippingNewline: true)
    }
}
