import Foundation
import NIOCore

/// The port a server listens on, as its user gives it (`--port`), for the identity emulator and the samples alike:
/// checked before binding, and a failed bind explained in the user's terms (which address, and what to do).
package enum ListeningPort {
    /// What is wrong with `port`, completing "port …" or "--port …" (`must be 0–65535, not 99999`); `nil` when
    /// it can be listened on (0 picks a free one).
    package static func problem(_ port: Int) -> String? {
        (0...65535).contains(port) ? nil : "must be 0–65535, not \(port)"
    }

    /// What to tell the user when listening on `host`:`port` failed with `error`; `nil` when `error` is not a
    /// failure to bind that this explains.
    package static func explanation(of error: any Error, host: String, port: Int) -> String? {
        guard let error = error as? IOError else { return nil }
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch error.errnoCode {
        case EADDRINUSE:
            return "\(address) is already in use by another program: stop it, or choose another port with --port "
                + "(--port 0 picks a free one)"
        case EACCES:
            return "this user may not listen on \(address) (ports below 1024 need privileges): choose another port "
                + "with --port (--port 0 picks a free one)"
        case EADDRNOTAVAIL:
            return "\(host) is not an address of this machine, so nothing can listen on \(address): choose another "
                + "with --host"
        default:
            return nil
        }
    }
}
