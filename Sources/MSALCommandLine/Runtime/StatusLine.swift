import Foundation
import Locking

/// What a command is waiting for, on one line of standard error that redraws with the elapsed time
/// (`⠹ Waiting for you to sign in in the browser… 0:07 (Ctrl-C to cancel)`). Shows nothing unless
/// standard error is a terminal.
final class StatusLine: Sendable {
    private struct State {
        var message: String?
        var ticker: Task<Void, Never>?
    }

    private let console: Console
    private let state = Locked(State())

    init(console: Console) { self.console = console }

    /// Shows `message` until ``clear()``.
    func show(_ message: String) {
        guard console.isInteractive else { return }
        let task = Task.detached { [weak self] in
            let started = ContinuousClock.now
            var frame = 0
            while !Task.isCancelled, let self {
                self.draw(frame: frame, elapsed: ContinuousClock.now - started)
                frame += 1
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        state.withLock { state in
            state.ticker?.cancel()
            state = State(message: message, ticker: task)
        }
    }

    /// Erases the line.
    func clear() {
        state.withLock { state in
            guard state.message != nil else { return }
            state.ticker?.cancel()
            state = State()
            console.errRaw("\r\u{1B}[2K")
        }
    }

    /// Shows `message` while `body` runs.
    func during<T>(_ message: String, _ body: () async throws -> T) async rethrows -> T {
        show(message)
        defer { clear() }
        return try await body()
    }

    private func draw(frame: Int, elapsed: Duration) {
        let frames = Array("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        let seconds = elapsed.components.seconds
        state.withLock { state in
            guard let message = state.message else { return }
            console.errRaw(
                "\r\u{1B}[2K\(frames[frame % frames.count]) \(message) \(seconds / 60):\(String(format: "%02d", seconds % 60)) (Ctrl-C to cancel)"
            )
        }
    }
}
