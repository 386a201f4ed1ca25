import Foundation

#if canImport(Glibc)
    import Glibc

    /// A loopback port held bound but not listening: connecting to it is refused at once, and no other listener can
    /// take it while it is held. A port merely "bound once and closed since" can be taken by the next server a
    /// concurrent test starts, which then answers in its place.
    package final class ClosedPort: Sendable {
        package let port: Int
        private let descriptor: Int32

        /// Holds `port`; `nil` when something else has it.
        package init?(_ port: Int) {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { return nil }
            // Over connections of the port's last listener still in TIME_WAIT, never over a listener.
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                }
            }
            guard bound else {
                close(descriptor)
                return nil
            }
            self.port = port
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }
    }
#endif
