import AtomicFiles
import Crypto
import Foundation
import X509

extension LocalCertificateAuthority {
    /// The CA certificate's file in the TLS folder, the one clients are told to trust.
    static let certificateFileName = "identity-emulator-ca.pem"
    /// The CA key's file beside it (`0600`).
    static let keyFileName = "identity-emulator-ca-key.pem"

    /// The CA kept in `folder`, so that a client told to trust it once keeps trusting the emulator across restarts,
    /// with a new server certificate; a new CA, written there, when the folder has none, when the one there expires
    /// within 30 days, or when it was made for another `--public-url` host (its name constraint names the host).
    ///
    /// - Returns: the CA and whether it is new (clients must be told to trust it again).
    /// - Throws: ``IdentityEmulator/StartError`` when the folder is not this user's alone, or when its CA files
    ///   cannot be read as a CA and its key: nothing is replaced, the error names the file.
    static func kept(in folder: URL, now: Date, extraName: String?) throws -> (LocalCertificateAuthority, isNew: Bool) {
        try IdentityEmulator.ensurePrivateFolder(folder)
        let certificateFile = folder.appendingPathComponent(certificateFileName)
        let keyFile = folder.appendingPathComponent(keyFileName)
        let manager = FileManager.default
        if manager.fileExists(atPath: certificateFile.path) || manager.fileExists(atPath: keyFile.path) {
            let (ca, key) = try read(certificateFile, keyFile)
            if ca.notValidAfter > now.addingTimeInterval(30 * 86_400),
                (try? ca.extensions.nameConstraints) == nameConstraints(extraName: extraName)
            {
                return (
                    try LocalCertificateAuthority(caCertificate: ca, caKey: key, now: now, extraName: extraName), false
                )
            }
        }
        let (ca, key) = try makeCA(now: now, extraName: extraName)
        // The key first: a certificate on disk always has its key beside it.
        try AtomicFile.write(Data(key.pemRepresentation.utf8), to: keyFile.path)
        let authority = try LocalCertificateAuthority(caCertificate: ca, caKey: key, now: now, extraName: extraName)
        try AtomicFile.write(Data(authority.caCertificatePEM.utf8), to: certificateFile.path)
        // Readable by other users (a `sudo identity-emulator trust --install`, a container's bind mount); the key is not.
        chmod(certificateFile.path, 0o644)
        return (authority, true)
    }

    private static func read(_ certificateFile: URL, _ keyFile: URL) throws -> (Certificate, P256.Signing.PrivateKey) {
        let ca: Certificate
        let key: P256.Signing.PrivateKey
        do {
            ca = try Certificate(pemEncoded: try String(contentsOf: certificateFile, encoding: .utf8))
        } catch {
            throw IdentityEmulator.StartError(
                description: unreadable(certificateFile, "is not a PEM certificate (\(error))"))
        }
        do {
            key = try P256.Signing.PrivateKey(pemRepresentation: try String(contentsOf: keyFile, encoding: .utf8))
        } catch {
            throw IdentityEmulator.StartError(
                description: unreadable(keyFile, "is not the CA's P-256 private key in PEM (\(error))"))
        }
        guard ca.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw IdentityEmulator.StartError(
                description: unreadable(keyFile, "is not the key of \(certificateFile.lastPathComponent)"))
        }
        return (ca, key)
    }

    private static func unreadable(_ file: URL, _ problem: String) -> String {
        "\(file.path) \(problem); remove \(certificateFileName) and \(keyFileName) from that folder to make a new CA "
            + "(clients must then trust the new one)"
    }
}
