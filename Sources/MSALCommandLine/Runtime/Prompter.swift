import Foundation
import Locking

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

    /// The next line of standard input, without a prompt, as a secret (`--password-stdin`, `msal decode -`): a
    /// script pipes it in.
    ///
    /// - Parameter what: what the line is, for the error.
    /// - Throws: ``UsageError`` when standard input ends or the line is empty.
    func secretFromStandardInput(_ option: String, what: String = "password") async throws -> String {
        guard let line = try await Self.readLineOffThePool()?.trimmingCharacters(in: .newlines), !line.isEmpty else {
            throw UsageError("\(option) found no \(what) on standard input.")
        }
        return line
    }

    private func read(_ prompt: String, secret: Bool) async throws -> String {
        console.errRaw(prompt)
        // Echo goes off here and comes back however the read ends, Ctrl-C included.
        let saved = secret && isTerminal ? Self.echoOff() : nil
        defer {
            if var saved {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                console.err("")
            }
        }
        guard let answer = try await Self.readLineOffThePool() else {
            throw UsageError("Standard input ended while waiting for: \(prompt.trimmingCharacters(in: .whitespaces))")
        }
        // A secret keeps its spaces; only the line ending goes.
        return secret
            ? answer.trimmingCharacters(in: .newlines) : answer.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Reads one line on a thread of its own (a blocking read must not hold a cooperative thread);
    /// cancellation returns at once and leaves the read to end with the process.
    private static func readLineOffThePool() async throws -> String? {
        let once = Locked<CheckedContinuation<String?, any Error>?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.withLock { $0 = continuation }
                // Cancelled before the continuation was stored: onCancel found nothing to resume.
                if Task.isCancelled { once.withLock { $0.take() }?.resume(throwing: CancellationError()) }
                Thread {
                    let line = Swift.readLine(strippingNewline: true)
                    once.withLock { $0.take() }?.resume(returning: line)
                }.start()
            }
        } onCancel: {
            once.withLock { $0.take() }?.resume(throwing: CancellationError())
        }
    }

    /// Turns terminal echo off and returns the settings to restore, or `nil` when they cannot be read.
    private static func echoOff() -> termios? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        return saved
    }
}
