import Foundation
import IdentityEmulator
import Testing

/// The emulator refuses JSON nested past 64 levels (or over 250 KiB) in what it reads from clients and files, with a
/// clear error, and keeps serving.
@Suite("JSON bombs at the emulator")
struct JSONBombTests {
    /// `{"a":` and `levels` arrays opened, never closed.
    static func bomb(_ levels: Int = 20_000) -> String { "{\"a\":" + String(repeating: "[", count: levels) }

    /// `levels` arrays nested in each other.
    static func nested(_ levels: Int) -> Any {
        var value: Any = [Any]()
        for _ in 1..<levels { value = [value] }
        return value
    }

    @Test("admin bodies: 400 naming the limit, and the next request is served", arguments: ["clock", "scenarios"])
    func adminBody(route: String) async throws {
        try await TestEmulator.with { emulator in
            let refused = try await emulator.post("/_emulator/\(route)", json: Self.bomb())
            #expect(refused.status == 400)
            let error = try #require(try refused.string("error"))
            #expect(error.hasPrefix("the body nests deeper than 64 levels"), "\(error)")
            try await emulator.setClockOffset(60)
            try await emulator.scenario("token", "serverError")
        }
    }

    @Test("a directory file nesting past 64 levels names the limit")
    func directory() throws {
        let error = try #require(throws: DirectoryConfigurationError.self) {
            try Directory.decode(Data(Self.bomb().utf8))
        }
        #expect(error.field == "$")
        #expect(error.reason.hasPrefix("nests deeper than 64 levels"), "\(error.reason)")
    }

    @Test("a signed client assertion whose claims nest 64 levels authenticates; 65 levels are malformed (AADSTS50027)")
    func clientAssertion() async throws {
        try await TestEmulator.with { emulator in
            let audience = emulator.tokenEndpoint(emulator.ids.contosoTenant)
            let fits = try TestAssertion.demo(audience: audience, claims: ["x": Self.nested(63)])
            #expect(try await emulator.clientCredentials(assertion: fits).status == 200)
            let deep = try TestAssertion.demo(audience: audience, claims: ["x": Self.nested(64)])
            let refused = try await emulator.clientCredentials(assertion: deep)
            #expect(refused.status == 400)
            #expect(try refused.json["error_codes"] as? [Int] == [50027], "\(refused.body)")
        }
    }
}
