import Foundation
import MSAL

/// What an app proves its identity with, as the command line names it: a client secret (its value, read from
/// the environment), a PEM file with the private key and certificate, or a federated token file (workload
/// identity). Its description names the kind only, never the secret.
enum AppCredential: Sendable, Equatable, CustomStringConvertible {
    case secret(String)
    case certificate(path: String)
    case federatedTokenFile(path: String)

    /// The library's credential; a certificate file is read here.
    ///
    /// - Parameter sendX5C: send the certificate chain with the assertion (a certificate only).
    /// - Throws: ``UsageError`` when the certificate file cannot be read.
    func clientCredential(sendX5C: Bool = false) throws -> ClientCredential {
        switch self {
        case .secret(let secret):
            return .secret(secret)
        case .certificate(let path):
            do {
                return .certificate(try ClientCertificate(pemFile: URL(fileURLWithPath: path)), sendX5C: sendX5C)
            } catch let error as MSALError {
                throw UsageError(error.message)
            }
        case .federatedTokenFile(let path):
            return .federatedTokenFile(URL(fileURLWithPath: path))
        }
    }

    var description: String {
        switch self {
        case .secret: "a client secret"
        case .certificate(let path): "the certificate \(path)"
        case .federatedTokenFile(let path): "the federated token file \(path)"
        }
    }
}
