import Foundation
import Testing

@testable import MSAL

@Suite("Text found in UTF-8 bytes: includes as Foundation's contains, and the bytes a JSON string must escape")
struct ByteSearchTests {
    @Test(
        "includes finds what Foundation's contains finds in every place, and nothing else",
        arguments: ["{tenant}", "CERTIFICATE-----", "ü", "a", "tenantid}", "{{tenant}}"])
    func includesAsContains(needle: String) {
        let texts = [
            "", "{tenant}", "https://login.example.test/{tenant}/oauth2/v2.0/authorize", "{tenant", "tenant}",
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n", "ümlaut and ü", "{{tenant}}",
            "https://login.example.test/{tenantid}/v2.0", String(repeating: "{tenan", count: 20) + "{tenant}",
        ]
        for text in texts {
            #expect(text.includes(needle) == text.contains(needle), "\(text) / \(needle)")
        }
        #expect(!"anything".includes(""))
    }

    @Test("a JSON string needs escaping for a quote, a backslash or a control character at any offset")
    func jsonEscaping() {
        func needs(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { ByteWords.needJSONEscaping(UnsafeRawBufferPointer($0)) }
        }
        let plain = String(repeating: "eyJ0eXAiOiJKV1Qi.-_~/ü€", count: 4)
        #expect(!needs(plain))
        #expect(!needs(""))
        let bytes = Array(plain.utf8)
        for special: UInt8 in [0x00, 0x09, 0x0A, 0x1F, UInt8(ascii: "\""), UInt8(ascii: "\\")] {
            for offset in bytes.indices {
                var changed = bytes
                changed[offset] = special
                #expect(needs(String(decoding: changed, as: UTF8.self)), "byte \(special) at \(offset)")
            }
        }
        #expect(!needs("\u{7F} and space ~"))
    }
}
