import ArgumentParser
import Dispatch
import Foundation

extension GlobalOptionValues {
    /// Runs a command's body with a ``CommandContext`` (see there for `native` and `databaseCache`): Ctrl-C cancels it (exit 130), and any error
    /// becomes one line on standard error (`--verbose` adds details) and its documented exit code.
    ///
    /// - Parameter environment: the process's environment, when the command has read it already.
    func run(
        browser: CommandContext.BrowserChoice = .system, native: Bool = false, databaseCache: Bool = false,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        _ body: @escaping @Sendable (CommandContext) async throws -> Void
    ) async throws {
        try await reportingFailure(native: native) { console in
            let context = try await CommandContext(
                options: self, console: console, environment: environment,
                browser: browser, native: native, databaseCache: databaseCache)
            try await cancellingOnInterrupt { try await body(context) }
            // On the run loop (the commands tools run on every call) the process ends once the command returns: it
            // ends here, before the app, its cache index and the transport are torn down, freeing memory the exit
            // frees anyway (a fortieth of a warm `msal token`'s instructions). No deinit here writes or prints.
            if CommandRunLoop.handlesInterrupts { Foundation.exit(0) }
        }
    }

    /// Runs `body` with the console (for a command that needs no ``CommandContext``, `msal config`): any error
    /// becomes one line on standard error (`--verbose` adds details) and its documented exit code.
    func reportingFailure(native: Bool = false, _ body: (Console) async throws -> Void) async throws {
        let console = Console()
        do {
            try await body(console)
        } catch {
            console.err("msal: \(ExitCodes.line(for: error, native: native))")
            if verbose { for line in ExitCodes.details(for: error) { console.err("    \(line)") } }
            throw ExitCodes.code(for: error)
        }
    }
}

/// Runs `body` in a task that SIGINT cancels, so listeners close and the status line is erased (on a
/// ``CommandRunLoop``, which cancels its task itself, `body` runs as it is).
func cancellingOnInterrupt(_ body: @escaping @Sendable () async throws -> Void) async throws {
    if CommandRunLoop.handlesInterrupts { return try await body() }
    let task = Task { try await body() }
    signal(SIGINT, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
    source.setEventHandler { task.cancel() }
    source.resume()
    defer {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
    try await withTaskCancellationHandler {
        try await task.value
    } onCancel: {
        task.cancel()
    }
}
