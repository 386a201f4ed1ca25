import Foundation
import FuzzerDriver

/// The target's handler. libFuzzer takes a C function, which cannot capture one, so `runFuzzer` keeps it
/// here for `callTarget`. Written once before libFuzzer starts and only read after, by libFuzzer's one
/// calling thread.
nonisolated(unsafe) private var target: (Data) -> Void = { _ in }

/// Runs libFuzzer with the process's arguments, calling `fuzz` with each input's bytes; does not return.
public func runFuzzer(_ fuzz: @escaping (Data) -> Void) -> Never {
    target = fuzz
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callTarget))
}

/// libFuzzer's callback: the input as `Data` to the target; 0 keeps the input eligible for the corpus.
private func callTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target(data.map { size > 0 ? Data(bytes: $0, count: size) : Data() } ?? Data())
    return 0
}

/// Stops the process (a libFuzzer finding, with the input saved) when an invariant does not hold.
public func invariant(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { fatalError("invariant broken: \(message())", file: file, line: line) }
}

/// Runs `body` to its end from libFuzzer's synchronous callback (the targets that drive async code).
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        result.value = await body()
        done.signal()
    }
    done.wait()
    return result.value!
}

/// Invariant: `value` is written by one task before it signals, and read only after the wait on that signal.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
