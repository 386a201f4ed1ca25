import Foundation

/// A throwaway certificate authority and a server certificate it issued, both with P-256 keys (quicker to make than
/// RSA ones), made with `/usr/bin/openssl` for the TLS servers tests start: a PostgreSQL cluster, a Kubernetes API
/// stub. Clients trust the server by the authority's file.
package enum LoopbackCertificate {
    /// Makes the authority (its key in `scratch`, away from the server) and the server's certificate and key at the
    /// paths given, valid for two days.
    ///
    /// - Parameters:
    ///   - names: the server certificate's subject alternative names in openssl's form, e.g. `["DNS:localhost",
    ///     "IP:127.0.0.1"]`.
    ///   - scratch: a folder for the authority's key and the request.
    /// - Throws: ``ChildProcesses/ChildProcessError`` when openssl fails.
    package static func make(
        names: [String], authority: String, certificate: String, key: String, scratch: URL
    ) async throws {
        let authorityKey = scratch.appendingPathComponent("ca.key")
        let request = scratch.appendingPathComponent("server.csr")
        let extensions = scratch.appendingPathComponent("server.ext")
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await SpawnedProgram.run(
            "/usr/bin/openssl",
            ["req", "-x509"] + newKey + [
                "-days", "2", "-subj", "/CN=msal-test-ca", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign", "-keyout", authorityKey.path, "-out", authority,
            ])
        try await SpawnedProgram.run(
            "/usr/bin/openssl",
            ["req", "-new"] + newKey + ["-subj", "/CN=localhost", "-keyout", key, "-out", request.path])
        try "basicConstraints=critical,CA:FALSE\nsubjectAltName=\(names.joined(separator: ","))\n".write(
            to: extensions, atomically: false, encoding: .utf8)
        try await SpawnedProgram.run(
            "/usr/bin/openssl",
            [
                "x509", "-req", "-in", request.path, "-CA", authority, "-CAkey", authorityKey.path,
                "-set_serial", "2", "-days", "2", "-extfile", extensions.path, "-out", certificate,
            ])
        chmod(key, 0o600)
    }
}
