import Foundation
import Testing

@testable import MSAL

@Suite("The library's JSON reader: escaped strings read as JSONSerialization reads them")
struct CacheJSONReaderStringTests {
    @Test(
        "escapes at the start, the end, side by side and after long runs, surrogate pairs included",
        arguments: [
            #"\"quoted\""#, #"a\\b"#, #"\/path\/"#, #"line\nbreak\ttab\rreturn\bback\ffeed"#, #"\u00e9t\u00E9"#,
            #"\ud83d\ude00 emoji"#, String(repeating: "x", count: 70) + #"\"end"#,
            #"\"\\\/"# + String(repeating: "é", count: 40) + #"\u0041"#,
            #"{\"token_endpoint\":\"https://login.example.test/x/oauth2/v2.0/token\",\"issuer\":\"https://x/{tenantid}/v2.0\"}"#,
        ])
    func escapedString(content: String) throws {
        let json = Data(#"{"s":""#.utf8) + Data(content.utf8) + Data(#""}"#.utf8)
        let expected = try #require(JSONSerialization.jsonObject(with: json) as? [String: String])["s"]
        guard case .object(let members) = try CacheValue(json: json), case .string(let read)? = members["s"] else {
            Issue.record("not an object with a string")
            return
        }
        #expect(read == expected)
    }

    @Test("an escape or a string cut off by the end of the input is refused")
    func unterminated() {
        for json in [#"{"s":"abc"#, #"{"s":"abc\"#, #"{"s":"a\"b"#, #"{"s":"\q"}"#] {
            #expect(throws: (any Error).self, "\(json)") { try CacheValue(json: Data(json.utf8)) }
        }
    }
}
