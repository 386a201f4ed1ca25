import Foundation
import IdentityEmulator

/// The banner's lines that point the other tools at this emulator, for its actual port (and public URL): the
/// `export` lines `msal` reads (`MSAL_AUTHORITY`, `MSAL_CLIENT_ID`, and `MSAL_CA_BUNDLE` over TLS), ready to paste
/// into a shell, and the samples' command lines.
struct ClientSetup {
    let running: RunningEmulator

    var lines: [String] {
        let origin = running.issuerOrigin.absoluteString
        let directory = running.directory
        let client = Self.publicClient(directory.applications.filter { $0.kind == .publicClient })
        let workforce = directory.tenants.first { $0.kind == .workforce }
        guard let tenant = directory.tenants.first(where: { $0.id == client?.tenant }) ?? workforce else { return [] }
        var lines = [
            "Point msal at it (paste into your shell; `msal config set authority URL` keeps a setting for good):",
            "  export MSAL_AUTHORITY=\(Self.shellWord("\(origin)/\(tenant.domain)"))",
        ]
        if let client { lines.append("  export MSAL_CLIENT_ID=\(Self.shellWord(client.clientId))") }
        if let ca = running.caCertificateFile {
            lines.append("  export MSAL_CA_BUNDLE=\(Self.shellWord(ca.path))")
        }
        if let external = directory.tenants.first(where: { $0.kind == .external }),
            let app = directory.applications.first(where: { $0.kind == .publicClient && $0.tenant == external.id })
        {
            lines.append(
                "  msal native … (External ID): --authority \(Self.shellWord("\(origin)/\(external.domain)")) "
                    + "--client-id \(Self.shellWord(app.clientId))")
        }
        let samples = [Directory.DemoIDs.api1, Directory.DemoIDs.webApp].allSatisfy { id in
            directory.applications.contains { $0.clientId == id }
        }
        if samples {
            if running.caCertificateFile == nil {
                lines += [
                    "Run the samples against it:",
                    "  todo-api --identity-provider \(Self.shellWord(origin))",
                    "  webapp-sample --identity-provider \(Self.shellWord(origin))",
                ]
            } else {
                lines.append(
                    "todo-api and webapp-sample trust the system's CAs only: run them against an emulator without --tls."
                )
            }
        }
        return lines
    }

    /// The demo's public client when the directory has it, else the first public client.
    private static func publicClient(_ candidates: [Application]) -> Application? {
        candidates.first { $0.clientId == Directory.DemoIDs.publicClient } ?? candidates.first
    }

    /// `value` as one word for a POSIX shell: as it is when it holds only characters no shell treats specially,
    /// else in single quotes.
    static func shellWord(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "_-./:@%+=,".unicodeScalars.contains(scalar))
            }
        return plain ? value : "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
