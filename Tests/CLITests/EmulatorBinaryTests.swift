import ChildProcesses
import Foundation
import Testing

@Suite("The identity-emulator binary", .timeLimit(.minutes(5)))
struct EmulatorBinaryTests {
    static var binary: URL {
        DemoCommandTests.binary.deletingLastPathComponent().appendingPathComponent("identity-emulator")
    }

    /// Starts the emulator on port 0, waits for its banner, sends SIGINT, and returns the banner and the exit status.
    static func startAndInterrupt(_ extra: [String] = []) async throws -> (banner: String, status: Int32, tail: String)
    {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        let process = try ChildProcess(
                            binary.path, ["--port", "0"] + extra, input: .inherit, output: .pipe, error: .inherit)
                        var banner = Data()
                        let reader = process.standardOutput!
                        while !String(decoding: banner, as: UTF8.self).contains("Press Ctrl-C to stop.") {
                            let chunk = reader.availableData
                            if chunk.isEmpty { break }
                            banner.append(chunk)
                        }
                        process.send(SIGINT)
                        let tail = reader.readDataToEndOfFile()
                        let termination = process.waitUntilExit()
                        return (
                            String(decoding: banner, as: UTF8.self), termination.shellStatus,
                            String(decoding: tail, as: UTF8.self)
                        )
                    })
            }.start()
        }
    }

    @Test("prints its URL, authorities, client ids and demo users, and stops cleanly on Ctrl-C")
    func startAndStop() async throws {
        let (banner, status, tail) = try await Self.startAndInterrupt()
        #expect(banner.contains("identity-emulator listening on http://127.0.0.1:"))
        #expect(banner.contains("/contoso.onmicrosoft.com"))
        #expect(banner.contains("9f1b8c3e-2d4a-4b6e-8f0a-1c2d3e4f5a6b  msal-demo"))
        #expect(banner.contains("MeganB@contoso.onmicrosoft.com  Megan-Demo-Pass1"))
        #expect(status == 0)
        #expect(tail.contains("identity-emulator stopped"))
    }

    @Test("a bad --config stops with one line naming the field, exit 2")
    func badConfig() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bad-directory-\(UUID().uuidString).json")
        try Data(
            #"{"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"a.b","displayName":"A","kind":"workforce"}],"users":[{"id":"x","tenant":"11111111-2222-4333-8444-555555555555","userPrincipalName":"a@a.b","displayName":"A"}],"applications":[]}"#
                .utf8
        ).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output) = try await DemoCommandTests.run(["--config", file.path], binary: Self.binary)
        #expect(status == 2)
        #expect(output.contains("users[0].id: must be a GUID"))
    }

    @Test("--public-url is printed as the origin of every issuer; anything but an origin is refused, exit 2")
    func publicURL() async throws {
        let (banner, status, _) = try await Self.startAndInterrupt([
            "--public-url", "https://login.emulator.test:8443/",
        ])
        #expect(banner.contains("Every issuer names https://login.emulator.test:8443\n"))
        #expect(status == 0)
        for bad in ["ftp://login.emulator.test", "https://login.emulator.test/tenant", "login.emulator.test"] {
            let (refused, output) = try await DemoCommandTests.run(["--public-url", bad], binary: Self.binary)
            #expect(refused == 2, "\(bad)")
            #expect(output.contains("--public-url must be an origin"), "\(bad): \(output)")
        }
    }
}
