import Foundation
import Testing

@testable import MSAL

@Suite("Base64url: decoded with or without padding, from a string's bytes or any bytes")
struct Base64URLTests {
    @Test("every length round-trips, padded or not, from a substring and from bytes that are not contiguous")
    func roundTrip() {
        for length in 0...40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            let encoded = Base64URL.encode(bytes)
            #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
            let padded = encoded + String(repeating: "=", count: (4 - encoded.count % 4) % 4)
            let token = "header.\(encoded).signature"
            let part = token.split(separator: ".", omittingEmptySubsequences: false)[1]
            #expect(Base64URL.decode(encoded) == Data(bytes), "\(length)")
            #expect(Base64URL.decode(padded) == Data(bytes), "\(length) padded")
            #expect(Base64URL.decode(part) == Data(bytes), "\(length) in a token")
            #expect(Base64URL.decode(bytes: encoded.utf8.lazy.map { $0 }) == Data(bytes), "\(length) not contiguous")
        }
    }

    @Test("a length base64 cannot have, or a byte outside the alphabet, decodes to nil")
    func refused() {
        #expect(Base64URL.decode("abcde") == nil)
        #expect(Base64URL.decode("ab.d") == nil)
        #expect(Base64URL.decode("") == Data())
    }
}
