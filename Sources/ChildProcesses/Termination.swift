/// How a child process ended.
package enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It called `exit` with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// Decodes a status from `waitpid`.
    init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }

    /// The status a shell reports: the exit status, or 128 plus the signal.
    package var shellStatus: Int32 {
        switch self {
        case .exited(let status): status
        case .signalled(let signal): 128 + signal
        }
    }

    /// Whether it exited with status 0.
    package var succeeded: Bool { self == .exited(0) }

    package var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "was stopped by signal \(signal)"
        }
    }
}
