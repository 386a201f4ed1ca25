import Foundation
import IdentityEmulator
import InMemoryLogging
import Logging
import MSAL
import MSALPostgres
import TestServers
import Testing

extension PostgresStoreTests {
    /// The cluster serves a certificate for `localhost` only, from an authority of its own, and accepts TCP
    /// connections only with TLS (`hostssl`), so a store that works over TCP used TLS; one reaching it as 127.0.0.1
    /// meets a certificate for another host name.
    @Suite("TLS: what each sslmode checks of the server")
    struct TLS {
        @Test(
            "a certificate for another host name: verify-full refuses it; verify-ca and require accept it from its CA")
        func anotherHostName() async throws {
            let cluster = try clusterWithTLS()
            let authority = "sslrootcert=\(cluster.certificateAuthorityPath)"
            let failure = try await connectionFailure(cluster.tcpURL("sslmode=verify-full&\(authority)"))
            #expect(failure.contains("failedToValidateHostname"), "\(failure)")
            for mode in ["verify-ca", "require"] {
                try await expectWorks(cluster.tcpURL("sslmode=\(mode)&\(authority)"))
            }
            // The same certificate, reached by the name it bears.
            try await expectWorks(cluster.tcpURL("sslmode=verify-full&\(authority)", host: "localhost"))
        }

        @Test(
            "a certificate from another authority: verify-ca, require with sslrootcert and verify-full refuse it",
            arguments: ["verify-ca", "require", "verify-full"])
        func anotherAuthority(mode: String) async throws {
            let cluster = try clusterWithTLS()
            // A self-signed authority that did not issue the server's certificate.
            let other = cluster.root.appendingPathComponent("other-ca-\(mode).pem")
            try Directory.DemoIDs.daemonCertificatePEM.write(to: other, atomically: true, encoding: .utf8)
            let failure = try await connectionFailure(
                cluster.tcpURL("sslmode=\(mode)&sslrootcert=\(other.path)", host: "localhost"))
            #expect(failure.contains("CERTIFICATE_VERIFY_FAILED"), "\(failure)")
        }

        @Test("sslrootcert=system means verify-full against the system's roots, which did not issue the certificate")
        func systemRoots() async throws {
            let cluster = try clusterWithTLS()
            for query in ["sslrootcert=system", "sslmode=verify-full&sslrootcert=system", "sslmode=verify-full"] {
                let failure = try await connectionFailure(cluster.tcpURL(query, host: "localhost"))
                #expect(failure.contains("CERTIFICATE_VERIFY_FAILED"), "\(query): \(failure)")
            }
        }

        @Test(
            "require without sslrootcert, prefer and allow encrypt without checking the certificate; disable is refused"
        )
        func unauthenticatedModes() async throws {
            let cluster = try clusterWithTLS()
            for mode in ["require", "prefer", "allow"] {
                try await expectWorks(cluster.tcpURL("sslmode=\(mode)"))
            }
            // Without TLS the server refuses the TCP connection (pg_hba.conf has hostssl only).
            let failure = try await connectionFailure(cluster.tcpURL("sslmode=disable"))
            #expect(failure.contains("28000"), "\(failure)")
        }

        @Test("verify-ca without sslrootcert, and sslrootcert=system with a weaker sslmode, are refused when made")
        func refusedConfigurations() {
            let password = "S3cr3t-pass"
            let cases = [
                ("sslmode=verify-ca", "sslmode=verify-ca needs sslrootcert"),
                ("sslmode=require&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full, not require"),
                ("sslmode=verify-ca&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full, not verify-ca"),
                ("sslmode=prefer&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full, not prefer"),
                ("sslmode=disable&sslrootcert=system", "sslrootcert=system needs sslmode=verify-full, not disable"),
            ]
            for (query, reason) in cases {
                #expect("\(query)") {
                    try PostgresTokenCacheStore(url: "postgres://u:\(password)@db.example.com/db?\(query)")
                } throws: { error in
                    guard let error = error as? MSALError else { return false }
                    return error.internalCode == .invalidParameter && error.message.contains(reason)
                        && !error.message.contains(password)
                }
            }
        }

        @Test("a store for another host whose sslmode does not authenticate the server warns once; others do not")
        func warning() async throws {
            let cluster = try clusterWithTLS()
            let remote = "postgres://cache-writer:S3cr3t-pass@192.0.2.10:5432/db"
            for (url, warns) in [
                ("\(remote)?sslmode=require", true), ("\(remote)?sslmode=prefer", true),
                ("\(remote)?sslmode=allow", true), ("\(remote)?sslmode=disable", true), (remote, true),
                ("\(remote)?sslmode=require&sslrootcert=\(cluster.certificateAuthorityPath)", false),
                ("\(remote)?sslmode=verify-ca&sslrootcert=\(cluster.certificateAuthorityPath)", false),
                ("\(remote)?sslrootcert=system", false), ("\(remote)?sslmode=verify-full", false),
                (cluster.tcpURL("sslmode=require"), false),
                (cluster.tcpURL("sslmode=prefer", host: "localhost"), false),
                ("postgres://cache-writer@[::1]/db?sslmode=require", false), (cluster.socketURL, false),
            ] {
                let lines = InMemoryLogHandler.everyLevel()
                var logger = Logger(label: "msal.postgres.test") { _ in lines }
                logger.logLevel = .warning
                // Two operations, each making connections (or trying to): the warning is the store's, not theirs.
                try await withStore(url: url, timeout: .milliseconds(200), logger: logger) { store async throws in
                    for _ in 0..<2 { _ = try? await store.load(somePartition()) }
                }
                let warnings = lines.lines.filter { $0.contains("do not authenticate the server") }
                #expect(warnings.count == (warns ? 1 : 0), "\(url): \(warnings)")
                for warning in warnings {
                    #expect(warning.hasPrefix("warning "))
                    #expect(warning.contains("192.0.2.10:5432"))
                    #expect(!warning.contains("S3cr3t-pass") && !warning.contains("cache-writer"), "\(warning)")
                }
            }
        }
    }
}

/// The suite's cluster, which must serve TLS.
private func clusterWithTLS() throws -> PostgresCluster {
    let cluster = try PostgresCluster.current
    try #require(cluster.tls, "openssl is needed to give the cluster a certificate")
    return cluster
}

/// Expects a store for `url` to save and load.
private func expectWorks(_ url: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    try await withStore(url: url) { store async throws in
        let partition = somePartition()
        #expect(
            try await store.save(tokenBytes(url), for: partition, expiresOn: inAnHour, expectedVersion: nil) == 1,
            sourceLocation: sourceLocation)
        #expect(try await store.load(partition)?.data == tokenBytes(url), sourceLocation: sourceLocation)
    }
}

/// Starts a load with a store for `url` and returns how the driver reports the first connection it failed to make
/// (its log line), once it does; the load is then cancelled.
private func connectionFailure(_ url: String) async throws -> String {
    let (reports, continuation) = AsyncStream.makeStream(of: String.self)
    var logger = Logger(label: "msal.postgres.test") { _ in ConnectionFailureHandler(reports: continuation) }
    logger.logLevel = .info
    var failure = ""
    try await withStore(url: url, logger: logger) { store async throws in
        let load = Task {
            // A load that ends, with a connection or the timeout, ends the wait for a report too.
            defer { continuation.finish() }
            return try await store.load(somePartition())
        }
        for await report in reports {
            failure = report
            break
        }
        load.cancel()
        await #expect(throws: (any Error).self) { try await load.value }
    }
    return failure
}

/// Hands on the driver's "Connection creation failed" lines, with their metadata (the error).
private struct ConnectionFailureHandler: LogHandler {
    let reports: AsyncStream<String>.Continuation
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        guard event.message.description == "Connection creation failed" else { return }
        reports.yield("\(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })")
    }
}
