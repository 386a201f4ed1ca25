import Foundation
import IdentityEmulator
import Testing

/// Clients that send too slowly or too much cannot hold the emulator's connections or memory.
@Suite("Slow and oversized requests")
struct SlowClientTests {
    @Test("a request head dripped past the deadline gets 408 and the connection closes")
    func drippedHeaders() async throws {
        let shortDeadline: (inout EmulatorConfiguration) -> Void = { $0.requestHeadTimeout = .milliseconds(200) }
        try await TestEmulator.with(shortDeadline) { emulator in
            let partial =
                "GET /organizations/v2.0/.well-known/openid-configuration HTTP/1.1\r\n"
                + "Host: 127.0.0.1:\(emulator.running.port)\r\nX-Slow: a"
            let answer = try await RawHTTP.send(partial, port: emulator.running.port)
            #expect(answer.hasPrefix("HTTP/1.1 408"), "\(answer)")
            // A whole request on a fresh connection is still served.
            let whole = try await emulator.get("/organizations/v2.0/.well-known/openid-configuration")
            #expect(whole.status == 200)
        }
    }

    @Test("a 100 MB body is refused with 413 after its first megabyte, not read to its end")
    func hundredMegabyteBody() async throws {
        try await TestEmulator.with { emulator in
            let head =
                "POST /organizations/oauth2/v2.0/token HTTP/1.1\r\nHost: 127.0.0.1:\(emulator.running.port)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(100 << 20)\r\n\r\n"
            let answer = try await RawHTTP.sendReadingHead(
                head, body: Array(repeating: UInt8(ascii: "a"), count: 2 << 20), port: emulator.running.port)
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
        }
    }
}
