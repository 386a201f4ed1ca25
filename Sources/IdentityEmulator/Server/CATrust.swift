import ChildProcesses
import Foundation

/// How to make clients trust the emulator's local CA: per program (an option or a variable naming the CA's file),
/// or for every program on a Debian or Ubuntu machine, in the system's store (``install(_:)``).
public struct CATrust: Sendable {
    /// The CA certificate's PEM file.
    public let caFile: URL

    /// Instructions for the CA kept in `caFile`.
    public init(caFile: URL) { self.caFile = caFile }

    /// The CA `identity-emulator --tls --tls-directory folder --public-url publicURL` serves with, made and kept
    /// there now when it is not yet: so that it can be trusted before the emulator's first start.
    ///
    /// - Returns: the trust of its file, and whether the CA is new.
    /// - Throws: ``IdentityEmulator/StartError`` when the folder is not this user's alone or its CA files cannot be
    ///   read.
    public static func kept(in folder: URL, publicURL: URL? = nil) throws -> (CATrust, isNew: Bool) {
        let (_, isNew) = try LocalCertificateAuthority.kept(in: folder, now: Date(), extraName: publicURL?.host)
        return (CATrust(caFile: folder.appendingPathComponent(LocalCertificateAuthority.certificateFileName)), isNew)
    }

    /// One program at a time, by language: what to set or pass, as lines (a heading, then indented lines).
    public var instructions: [String] {
        let file = caFile.path
        return [
            "Trust the emulator's CA (\(file)) in one program at a time:",
            "  curl     curl --cacert \(file) https://127.0.0.1:8400/…   (or CURL_CA_BUNDLE=\(file))",
            "  Python   REQUESTS_CA_BUNDLE=\(file)   (requests: MSAL Python, azure-identity, Azure CLI)",
            "           SSL_CERT_FILE=\(file)   (ssl, httpx, aiohttp)",
            "  Node.js  NODE_EXTRA_CA_CERTS=\(file)   (added to Node's own list; MSAL.js for Node, msal-node)",
            "  Go       SSL_CERT_FILE=\(file)",
            "  Java     keytool -importcert -noprompt -alias identity-emulator -file \(file) \\",
            "             -keystore identity-emulator.p12 -storetype PKCS12 -storepass changeit",
            "           java -Djavax.net.ssl.trustStore=identity-emulator.p12 -Djavax.net.ssl.trustStorePassword=changeit …",
            "  .NET     SSL_CERT_FILE=\(file)   (on Linux .NET verifies with OpenSSL, which reads it)",
            "  Swift    msal --ca-bundle \(file) …   (or MSAL_CA_BUNDLE=\(file))",
            "           MSAL: DefaultHTTPTransport(trustedCAPEM: try String(contentsOfFile: \"\(file)\", encoding: .utf8))",
            "           async-http-client: tlsConfiguration.additionalTrustRoots = [.file(\"\(file)\")]",
            "REQUESTS_CA_BUNDLE, SSL_CERT_FILE, CURL_CA_BUNDLE and the Java trust store replace the program's list of CAs:",
            "to reach other sites from the same program, name a bundle of both:",
            "  cat /etc/ssl/certs/ca-certificates.crt \(file) > emulator-bundle.pem",
            "For every program on this machine (Debian, Ubuntu; as root):",
            "  identity-emulator trust --install --tls-directory \(caFile.deletingLastPathComponent().path)",
        ]
    }

    /// Where Debian's `update-ca-certificates` takes local CAs from and writes the system's bundle.
    public struct SystemStore: Sendable {
        /// The folder of local CAs (`/usr/local/share/ca-certificates`); the CA goes there as `identity-emulator.crt`.
        public var localCertificates: URL
        /// Arguments for `update-ca-certificates` besides the default folders (a test's own tree).
        public var updateArguments: [String]
        /// The tool (`/usr/sbin/update-ca-certificates`).
        public var updateTool: URL

        /// Debian's system store.
        public static let debian = SystemStore(
            localCertificates: URL(fileURLWithPath: "/usr/local/share/ca-certificates"), updateArguments: [],
            updateTool: URL(fileURLWithPath: "/usr/sbin/update-ca-certificates"))

        /// A store of folders and arguments of one's own.
        public init(localCertificates: URL, updateArguments: [String], updateTool: URL) {
            self.localCertificates = localCertificates
            self.updateArguments = updateArguments
            self.updateTool = updateTool
        }
    }

    /// Why the CA could not be added to the system's store.
    public struct InstallError: Error, CustomStringConvertible {
        /// What failed, and what to do.
        public let description: String
    }

    /// Adds the CA to `store` (copied as `identity-emulator.crt`, readable by all) and runs `update-ca-certificates`,
    /// so that every program verifying with the system's list trusts it. Installing it again replaces it.
    ///
    /// - Returns: the tool's report.
    /// - Throws: ``InstallError`` naming the step that failed (no tool, a folder that cannot be written, the tool's
    ///   exit status and output).
    public func install(_ store: SystemStore = .debian) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: store.updateTool.path) else {
            throw InstallError(
                description:
                    "\(store.updateTool.path) is missing: --install needs Debian's ca-certificates package (apt-get install ca-certificates); or trust the CA per program as above"
            )
        }
        let target = store.localCertificates.appendingPathComponent("identity-emulator.crt")
        do {
            try FileManager.default.createDirectory(at: store.localCertificates, withIntermediateDirectories: true)
            let pem = try Data(contentsOf: caFile)
            try pem.write(to: target, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target.path)
        } catch {
            throw InstallError(
                description:
                    "cannot copy \(caFile.path) to \(target.path): \(error.localizedDescription) (as root: sudo identity-emulator trust --install --tls-directory \(caFile.deletingLastPathComponent().path))"
            )
        }
        let result: ProgramOutput
        do {
            result = try ChildProcess.runToEnd(store.updateTool.path, store.updateArguments, error: .standardOutput)
        } catch {
            throw InstallError(description: error.description)
        }
        let report = result.text
        guard result.termination.succeeded else {
            throw InstallError(description: "\(store.updateTool.path) \(result.termination): \(report)")
        }
        return report
    }
}
