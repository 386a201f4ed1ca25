import Foundation
import FuzzerDriver

/// One fuzz input's handler, as libFuzzer calls it: returns 0 (`-1` would keep the input out of the corpus).
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer with the process's arguments, calling `callback` with each input; does not return.
public func runFuzzer(_ callback: FuzzCallback) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
}

/// The input's bytes.
public func input(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Data {
    guard let data, size > 0 else { return Data() }
    return Data(bytes: data, count: size)
}

/// Stops the process (a libFuzzer finding, with the input saved) when an invariant does not hold.
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    if !condition { fatalError("invariant broken: \(message())", file: file, line: line) }
}
