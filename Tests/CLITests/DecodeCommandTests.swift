import Foundation
import Testing

/// `msal decode`: a token's header and claims explained, times in local time (a fixed `TZ`), from the command line
/// or standard input, without the network (no emulator runs here).
@Suite("msal decode", .timeLimit(.minutes(2)))
struct DecodeCommandTests {
    static let zone = TokenFormatTests.zone

    /// An unsigned token with claims in an order the glossary does not use, one unknown, times and an array.
    static let token =
        [
            #"{"kid":"key-1","alg":"RS256","typ":"JWT"}"#,
            #"{"zz_custom":true,"exp":1700000000,"roles":["Tasks.Read","Tasks.Write"],"iss":"https://login.example/t/v2.0","aud":"api://todo","iat":1699996400}"#,
        ].map {
            Data($0.utf8).base64EncodedString().replacing("=", with: "").replacing("+", with: "-").replacing(
                "/", with: "_")
        }
        .joined(separator: ".") + ".c2lnbmF0dXJl"

    static func run(_ arguments: [String], input: String? = nil) async throws -> CLIResult {
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": "/nonexistent",
        ].merging(zone) { $1 }
        guard let input else {
            return try await CLIProcess.run(Binaries.url("msal"), arguments, environment: environment)
        }
        let process = try CLIProcess(Binaries.url("msal"), arguments, environment: environment, takingInput: true)
        process.send(input)
        process.endInput()
        return try await process.finish()
    }

    @Test("header and claims in the glossary's order, each explained, times in local time, expiry; - reads stdin")
    func explained() async throws {
        let decoded = try await Self.run(["decode", Self.token])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let lines = decoded.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Header")
        #expect(lines.filter { $0.hasPrefix("typ ") || $0.hasPrefix("alg ") || $0.hasPrefix("kid ") }.count == 3)
        #expect(lines.firstIndex { $0.hasPrefix("typ ") }! < lines.firstIndex { $0.hasPrefix("kid ") }!)
        let claims = lines.drop { $0 != "Claims" }.dropFirst(2).prefix { !$0.isEmpty }
        #expect(claims.map { String($0.prefix { $0 != " " }) } == ["aud", "iss", "iat", "exp", "roles", "zz_custom"])
        #expect(
            claims.contains {
                $0.contains(
                    #/^exp +1700000000 \(2023-11-15 03:43:20 IST\) +Expires: the token is not valid after this time\.$/#
                )
            }, "\(decoded.stdout)")
        #expect(claims.contains { $0.contains(#/^iat +1699996400 \(2023-11-15 02:43:20 IST\) +Issued at: /#) })
        #expect(claims.contains { $0.contains(#/^roles +\["Tasks.Read","Tasks.Write"\] +The app roles /#) })
        #expect(claims.contains { $0.contains(#/^zz_custom +true +Not a standard claim/#) })
        #expect(decoded.stdout.contains("Expired at 2023-11-15 03:43:20 IST."))

        let piped = try await Self.run(["decode", "-"], input: Self.token)
        #expect(piped.status == 0 && piped.stdout == decoded.stdout, "\(piped.stderr)")
        let json = try CLICommandTests.json(try await Self.run(["decode", "--json", "-"], input: Self.token))
        #expect((json["claims"] as? [String: Any])?["exp"] as? Int == 1_700_000_000)
        #expect((json["header"] as? [String: Any])?["kid"] as? String == "key-1")
    }

    @Test("not a JWT: exit 1 with what a JWT is, the input not repeated; nothing on standard input: usage")
    func notAToken() async throws {
        let opaque = "EwBwA8l6BAAUopaque-secret-looking-value"
        let refused = try await Self.run(["decode", "-"], input: opaque)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("This is not a JWT"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(opaque) && refused.stdout.isEmpty)
        let empty = try await Self.run(["decode", "-"], input: "")
        #expect(empty.status == 2, "\(empty.stderr)")
    }
}
