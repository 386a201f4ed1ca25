import Foundation
import Testing

@testable import MSAL

/// Lifetimes and waits a server sends are read so that no value traps a conversion: huge, infinite or negative
/// numbers are clamped or refused when parsed.
@Suite("Server-supplied seconds: huge, infinite and negative values")
struct ServerSecondsTests {
    static let maximum = ServerSeconds.maximum

    @Test(
        "expires_in and refresh_in of 1e300, a string 1e300, -5; inf and NaN refused",
        arguments: [
            (#"1e300"#, maximum), (#""1e300""#, maximum), (#"-5"#, 0), (#""3599""#, 3599), (#"3599.9"#, 3599),
        ] as [(String, Int)])
    func tokenResponse(_ expiresIn: String, _ expected: Int) throws {
        let body = #"{"access_token":"a","token_type":"Bearer","expires_in":\#(expiresIn),"refresh_in":\#(expiresIn)}"#
        let response = try TokenResponse(json: Data(body.utf8))
        #expect(response.expiresIn == expected && response.refreshIn == expected)
        _ = Date().addingTimeInterval(TimeInterval(response.expiresIn))
    }

    @Test("a token response whose expires_in is not a finite number is refused, not trapped")
    func tokenResponseInfinite() {
        for value in [#""inf""#, #""-infinity""#, #""nan""#] {
            let body = #"{"access_token":"a","token_type":"Bearer","expires_in":\#(value)}"#
            let error = #expect(throws: MSALError.self) { try TokenResponse(json: Data(body.utf8)) }
            #expect(error?.internalCode == .invalidResponse)
        }
    }

    @Test("Retry-After: 1e300 and an HTTP date far ahead are clamped; inf and NaN are not a wait")
    func retryAfter() {
        let now = Date()
        #expect(RetryAfter.seconds("1e300", now: now) == TimeInterval(Self.maximum))
        #expect(RetryAfter.seconds("inf", now: now) == nil)
        #expect(RetryAfter.seconds("nan", now: now) == nil)
        #expect(RetryAfter.seconds("-3", now: now) == 0)
        #expect(RetryAfter.seconds("Fri, 31 Dec 9999 23:59:59 GMT", now: now) == TimeInterval(Self.maximum))
        #expect(RetryAfter.seconds("2.5", now: now) == 2.5)
    }

    @Test("device code: expires_in 1e300 and interval inf do not trap")
    func deviceCode() throws {
        let body = #"""
            {"user_code":"ABC","device_code":"d","verification_uri":"https://microsoft.com/devicelogin",
             "expires_in":1e300,"interval":"inf"}
            """#
        let response = try DeviceCodeInfo(json: Data(body.utf8))
        #expect(response.expiresIn == Self.maximum)
        #expect(response.interval == 5)
    }

    @Test("managed identity: expires_in 1e300 is clamped; an infinite one is refused")
    func managedIdentity() throws {
        let huge = Data(#"{"access_token":"a","expires_in":"1e300","refresh_in":1e300}"#.utf8)
        let token = try ManagedIdentityResponse.token(HTTPResponse(status: .ok), huge, from: .imds, now: Date())
        #expect(token.expiresIn == TimeInterval(Self.maximum))
        #expect(token.refreshIn == TimeInterval(Self.maximum))
        let infinite = Data(#"{"access_token":"a","expires_in":"inf"}"#.utf8)
        #expect(throws: MSALError.self) {
            try ManagedIdentityResponse.token(HTTPResponse(status: .ok), infinite, from: .imds, now: Date())
        }
    }
}
