import Foundation

/// Sends bytes an HTTP client would not (a request without `Host`) over a plain loopback socket.
enum RawHTTP {
    /// Writes `request` to 127.0.0.1:`port` and reads the answer until the server closes the connection
    /// (send `Connection: close`), on a thread of its own (the socket calls block).
    static func send(_ request: String, port: Int) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try exchange(request, port: port) }) }.start()
        }
    }

    /// Writes a request's head and the first `body` bytes of its body, and reads until the answer's head has
    /// arrived (the server may answer before the body is complete, and then need not read the rest).
    static func sendReadingHead(_ head: String, body: [UInt8], port: Int) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let fd = try connected(port)
                        defer { close(fd) }
                        let bytes = Array(head.utf8) + body
                        var written = 0
                        while written < bytes.count {
                            let count = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                            if count <= 0 { break }  // the server stopped reading: its answer is what matters
                            written += count
                        }
                        var answer = [UInt8]()
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        while answer.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                            let count = read(fd, &buffer, buffer.count)
                            if count <= 0 { break }
                            answer += buffer[0..<count]
                        }
                        return String(decoding: answer, as: UTF8.self)
                    })
            }.start()
        }
    }

    /// A socket connected to 127.0.0.1:`port` whose reads give up after 30 s.
    private static func connected(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw TestFailure("connect() to port \(port) failed")
        }
        return fd
    }

    private static func exchange(_ request: String, port: Int) throws -> String {
        let fd = try connected(port)
        defer { close(fd) }
        let bytes = Array(request.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw TestFailure("write() failed") }
        var answer = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
