import Foundation
import Testing

@testable import MSAL

/// The key file an Arc challenge names is read only from the agent's folder, only when it is a regular `.key` file
/// of at most 4096 bytes: a forged challenge cannot make the library read, or send, any other file.
@Suite("Azure Arc key files")
struct AzureArcKeyFileTests {
    private func challenge(_ path: String) -> HTTPResponse {
        HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: "Basic realm=\(path)"])
    }

    @Test("inside the folder and small: read; outside, too large, missing, not .key, a link or malformed: refused")
    func checks() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("arc-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("tokens")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        func write(_ name: String, in directory: URL, bytes: Int = 32) throws -> String {
            let file = directory.appendingPathComponent(name)
            try Data(repeating: UInt8(ascii: "k"), count: bytes).write(to: file)
            return file.path
        }
        let good = try write("good.key", in: folder)
        #expect(
            try AzureArcChallenge.key(answering: challenge(good), folder: folder.path)
                == String(repeating: "k", count: 32))
        let exactly = try write("limit.key", in: folder, bytes: 4096)
        #expect(try AzureArcChallenge.key(answering: challenge(exactly), folder: folder.path).count == 4096)

        let outside = try write("outside.key", in: root)
        let large = try write("large.key", in: folder, bytes: 4097)
        let notKey = try write("secret.txt", in: folder)
        let link = folder.appendingPathComponent("link.key").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        let refused: [(HTTPResponse, String)] = [
            (challenge(outside), "is not in"), (challenge(folder.path + "/../outside.key"), "is not in"),
            (challenge(large), "more than 4096"),
            (challenge(folder.appendingPathComponent("missing.key").path), "cannot be opened"),
            (challenge(notKey), "not a .key file"), (challenge(link), "cannot be opened"),
            (HTTPResponse(status: .unauthorized), "no WWW-Authenticate"),
            (
                HTTPResponse(status: .unauthorized, headerFields: [.wwwAuthenticate: "Bearer realm=\(good)"]),
                "not 'Basic realm"
            ),
            (challenge("relative/good.key"), "is not in"),
        ]
        for (response, reason) in refused {
            let error = #expect(throws: MSALError.self) {
                try AzureArcChallenge.key(answering: response, folder: folder.path)
            }
            #expect(error?.internalCode == .invalidResponse)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("kkkk") == false)
        }
    }
}
