import Foundation
import Locking

/// What the tutorials' widgets show, line by line (printed with tokens masked), for tests to wait on.
final class Console: Sendable {
    struct Line: Sendable {
        let widget: String
        let text: String
    }

    /// A line that a tutorial writes when something went wrong.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct Waiter {
        let text: String
        let continuation: CheckedContinuation<String, any Error>
    }

    private struct State {
        var lines: [Line] = []
        /// Lines before this index were matched (or passed over) by earlier waits.
        var cursor = 0
        var waiter: Waiter?

        /// The next log line containing `text`, or a failure if a failing line comes first.
        mutating func scan(for text: String) -> Result<String, any Error>? {
            while cursor < lines.count {
                let line = lines[cursor]
                cursor += 1
                guard line.widget == "loggingText" else { continue }
                if line.text.contains(text) { return .success(line.text) }
                if Console.failurePrefixes.contains(where: line.text.hasPrefix) {
                    return .failure(Failure(description: "waiting for '\(text)', the tutorial logged: \(line.text)"))
                }
            }
            return nil
        }
    }

    static let failurePrefixes = [
        "Could not", "Couldn't", "Unable", "Didn't find", "Received error", "Device info not returned",
        "Unsuccessful", "Error retrieving", "Invalid API", "Error signing in", "Error requesting", "Error submitting",
        "Error registering", "Error verifying",
    ]

    private let state = Locked(State())

    /// Everything shown so far.
    var lines: [Line] { state.withLock { $0.lines } }

    func record(_ widget: String, _ text: String) {
        print("[\(widget)] " + Self.masked(text))
        let resolved: (Waiter, Result<String, any Error>)? = state.withLock { state in
            state.lines.append(Line(widget: widget, text: text))
            guard let waiter = state.waiter, let result = state.scan(for: waiter.text) else { return nil }
            state.waiter = nil
            return (waiter, result)
        }
        if let (waiter, result) = resolved { waiter.continuation.resume(with: result) }
    }

    /// Waits for the next `loggingText` line containing `text` (after the previous wait's match).
    ///
    /// - Throws: ``Failure`` when a line reporting an error comes first.
    @discardableResult
    func expect(_ text: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let result: Result<String, any Error>? = state.withLock { state in
                if let result = state.scan(for: text) { return result }
                state.waiter = Waiter(text: text, continuation: continuation)
                return nil
            }
            if let result { continuation.resume(with: result) }
        }
    }

    /// JWTs shortened: the tutorials print tokens, tests should not.
    private static func masked(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-.]+"#, with: "eyJ…(token)", options: .regularExpression)
    }
}
