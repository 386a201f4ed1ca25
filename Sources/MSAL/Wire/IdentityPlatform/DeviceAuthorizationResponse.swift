import Foundation
import OutsideJSON

/// What the device authorization endpoint answers (RFC 8628 §3.2), shown to the user.
public struct DeviceCodeInfo: Sendable, Equatable {
    /// The text to show ("To sign in, use a web browser to open the page … and enter the code …").
    public let message: String
    /// The code the user enters on the verification page.
    public let userCode: String
    /// The page where the user enters the code.
    public let verificationURI: URL
    /// Seconds until the code expires.
    public let expiresIn: Int
    /// Seconds between polls.
    public let interval: Int
    let deviceCode: String

    /// - Throws: ``MSALError`` `invalidResponse` when the body is not a JSON object within ``JSONLimits/message`` or
    ///   a required member is missing.
    init(json data: Data) throws {
        let object = try JSONLimits.message.object(data) { "The device code response \($0)." }
        guard let userCode = object["user_code"] as? String, let deviceCode = object["device_code"] as? String,
            let uri = ((object["verification_uri"] ?? object["verification_url"]) as? String).flatMap(URL.init(string:))
        else {
            throw MSALError.internal(
                .invalidResponse, "The device code response lacks user_code, device_code or verification_uri.")
        }
        self.userCode = userCode
        self.deviceCode = deviceCode
        verificationURI = uri
        func int(_ key: String) -> Int? { ServerSeconds.of(object[key]) }
        expiresIn = int("expires_in") ?? 900
        interval = max(int("interval") ?? 5, 1)
        message =
            object["message"] as? String
            ?? "To sign in, use a web browser to open the page \(uri.absoluteString) and enter the code \(userCode) to authenticate."
    }
}
