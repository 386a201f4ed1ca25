import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Loopback ports for the servers tests start.
package enum LoopbackPort {
    /// A loopback port nothing listens on, below Linux's ephemeral range (32768–60999): other tests take "a port
    /// that was bound and is now closed" from that range to stand for an unreachable server, and a server
    /// listening on such a port would leave their connections unanswered instead of refused.
    package static func free() throws -> Int {
        for _ in 0..<200 {
            let candidate = Int.random(in: 20_000..<32_000)
            if try isFree(candidate) { return candidate }
        }
        throw ProxyServerError("no free loopback port between 20000 and 32000")
    }

    /// Waits until something accepts connections on `port` (true), or `alive` turns false or 10 s pass (false).
    /// A server started as a process has no other way to say it is ready.
    package static func awaitListener(on port: Int, while alive: () -> Bool) async throws -> Bool {
        for _ in 0..<1000 {
            if accepts(port) { return true }
            guard alive() else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    private static func socketDescriptor() -> Int32 {
        #if canImport(Glibc)
            socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    private static func withLoopbackAddress<T>(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    private static func isFree(_ port: Int) throws -> Bool {
        let descriptor = socketDescriptor()
        guard descriptor >= 0 else { throw ProxyServerError("socket() failed") }
        defer { close(descriptor) }
        return withLoopbackAddress(port) { bind(descriptor, $0, $1) == 0 }
    }

    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socketDescriptor()
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return withLoopbackAddress(port) { connect(descriptor, $0, $1) == 0 }
    }
}
