import Foundation

/// Compact JWS encoding and decoding for the tokens the emulator issues and accepts.
enum JWT {
    /// Signs `payload` with RS256 under `key`: `{"typ":"JWT","alg":"RS256","kid":…}`.
    static func sign(_ payload: JSONValue, with key: SigningKey) throws -> String {
        let input = signingInput(payload, key: key)
        return input + "." + Base64URL.encode(try key.sign(Array(input.utf8)))
    }

    /// `base64url(header).base64url(payload)`, the bytes an RS256 signature covers.
    static func signingInput(_ payload: JSONValue, key: SigningKey) -> String {
        key.encodedHeader + "." + Base64URL.encode(payload.serialized)
    }

    /// An unsigned token (`alg: none`), as a hostile server would send one.
    static func unsigned(_ payload: JSONValue) -> String {
        let header = JSONValue.object([("typ", .string("JWT")), ("alg", .string("none"))])
        return Base64URL.encode(header.serialized) + "." + Base64URL.encode(payload.serialized) + "."
    }

    /// Why a bearer token was refused.
    enum Rejection: Error, Equatable {
        case malformed
        case badSignature
    }

    /// Decodes a token and checks its RS256 signature; returns the payload.
    ///
    /// - Throws: ``Rejection``.
    static func verify(_ token: String, with key: SigningKey) throws -> JSONValue {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = Base64URL.decode(parts[0]), let header = try? JSONValue.parse(headerData),
              let payloadData = Base64URL.decode(parts[1]), let payload = try? JSONValue.parse(payloadData),
              case .object = payload
        else { throw Rejection.malformed }
        guard header["alg"]?.stringValue == "RS256", header["kid"]?.stringValue == key.kid,
              let signature = Base64URL.decode(parts[2]),
              key.verify(signature, over: Array("\(parts[0]).\(parts[1])".utf8))
        else { throw Rejection.badSignature }
        return payload
    }
}
