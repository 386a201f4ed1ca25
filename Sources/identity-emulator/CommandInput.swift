import ArgumentParser
import Foundation

/// The commands' shared reading of their options.
enum CommandInput {
    /// Says on standard error why the options cannot be used, and exits 2.
    static func refuse(_ reason: String) throws -> Never {
        FileHandle.standardError.write(Data("identity-emulator: \(reason)\n".utf8))
        throw ExitCode(2)
    }

    /// `--public-url` as an origin: http or https, a host, an optional port, no path; else exit 2.
    static func publicOrigin(_ publicURL: String?) throws -> URL? {
        guard let publicURL else { return nil }
        guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false,
            url.path.isEmpty || url.path == "/", url.query == nil
        else {
            try refuse(
                "--public-url must be an origin such as https://emulator.example:8443 (scheme, host, optional port; no path): \(publicURL)"
            )
        }
        return URL(string: publicURL.hasSuffix("/") ? String(publicURL.dropLast()) : publicURL)
    }

    /// Where `--tls` keeps its CA by default: `$XDG_DATA_HOME/identity-emulator`, else
    /// `~/.local/share/identity-emulator`, so that trust given to it survives restarts (and reboots).
    static var defaultTLSFolder: String {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appendingPathComponent("identity-emulator").path
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/share/identity-emulator").path
    }
}
