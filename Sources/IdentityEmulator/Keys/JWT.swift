import Foundation

/// Compact JWS encoding and decoding for the tokens the emulator issues and accepts.
enum JWT {
    /// Signs `payload` with RS256 under `key`: `{"typ":"JWT","alg":"RS256","kid":…}`.
    /// The token is assembled in one buffer: header, payload, then the signature over the first two.
    static func sign(_ payload: JSONValue, with key: SigningKey) throws -> String {
        var token = Array(key.encodedHeader.utf8)
        token.reserveCapacity(1024)
        token.append(UInt8(ascii: "."))
        Base64URL.append(payload.serializedBytes, to: &token)
        let signature = try key.sign(token)
        token.append(UInt8(ascii: "."))
        Base64URL.append(signature, to: &token)
        return String(decoding: token, as: UTF8.self)
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

    /// The `kid` in a compact JWS's header, if it has one.
    static func keyID(_ token: String) -> String? {
        guard let dot = token.firstIndex(of: "."), let data = Base64URL.decode(token[..<dot]),
            let header = try? JSONValue.parse(data)
        else { return nil }
        return header["kid"]?.stringValue
    }

    /// A compact JWS's header and payload (a JSON object), decoded without checking its signature; `nil` when the
    /// token is not one.
    static func decode(_ token: String) -> (header: JSONValue, payload: JSONValue)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerData = Base64URL.decode(parts[0]), let header = try? JSONValue.parse(headerData),
            let payloadData = Base64URL.decode(parts[1]), let payload = try? JSONValue.parse(payloadData),
            case .object = payload
        else { return nil }
        return (header, payload)
    }

    /// Decodes a token and checks its RS256 signature; returns the payload.
    ///
    /// - Throws: ``Rejection``.
    static func verify(_ token: String, with key: SigningKey) throws -> JSONValue {
        guard let (header, payload) = decode(token) else { throw Rejection.malformed }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard header["alg"]?.stringValue == "RS256", header["kid"]?.stringValue == key.kid,
            let signature = Base64URL.decode(parts[2]),
            key.verify(signature, over: Array("\(parts[0]).\(parts[1])".utf8))
        else { throw Rejection.badSignature }
        return payload
    }
}
