import Foundation
import IdentityEmulator
import Testing

/// `identity-emulator trust`: the local CA kept in a folder across restarts, instructions that make curl, Python,
/// Node.js, Go and Java trust it, and `--install` into a system store with Debian's own update-ca-certificates.
@Suite("Trusting the emulator's local CA", .timeLimit(.minutes(5)))
struct EmulatorTrustTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-trust-\(UUID().uuidString)")
    var tls: URL { folder.appendingPathComponent("tls") }
    var caFile: URL { tls.appendingPathComponent("identity-emulator-ca.pem") }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"

    func trust(_ extra: [String] = []) async throws -> CLIResult {
        try await CLIProcess.run(
            Binaries.url("identity-emulator"), ["trust", "--tls-directory", tls.path] + extra,
            environment: ["PATH": path])
    }

    /// `curl` for the emulator's discovery document at `base`, with `arguments` and `environment`: its exit status.
    func curl(_ base: String, _ arguments: [String] = [], environment: [String: String] = [:]) async throws -> Int32 {
        try await CLIProcess.run(
            URL(fileURLWithPath: "/usr/bin/curl"),
            ["-sS", "-o", "/dev/null", "--fail"] + arguments + ["\(base)/common/v2.0/.well-known/openid-configuration"],
            environment: environment.merging(["PATH": path]) { $1 }
        ).status
    }

    @Test("trust before the first start makes the CA; each start then serves with it, the key kept 0600")
    func keptAcrossRestarts() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await trust()
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("A new local CA was made: \(caFile.path)\n"))
        let pem = try String(contentsOf: caFile, encoding: .utf8)
        let key = try FileManager.default.attributesOfItem(
            atPath: tls.appendingPathComponent("identity-emulator-ca-key.pem").path)
        #expect((key[.posixPermissions] as? Int) == 0o600)
        #expect(!(try await trust()).stdout.contains("A new local CA"))
        for _ in 0..<2 {
            try await EmulatorSetupTests.withEmulatorBinary(["--tls", "--tls-directory", tls.path]) { banner in
                #expect(banner.contains("TLS CA certificate: \(caFile.path) (kept from an earlier start)"), "\(banner)")
                let base = try #require(
                    banner.firstMatch(of: #/listening on (?<url>https://127\.0\.0\.1:\d+)/#).map {
                        String($0.output.url)
                    })
                #expect(try await curl(base, ["--cacert", caFile.path]) == 0)
                #expect(try await curl(base) != 0, "without the CA, curl must refuse the emulator")
            }
        }
        #expect(try String(contentsOf: caFile, encoding: .utf8) == pem)
    }

    @Test("a CA made for another --public-url host is made again (its name constraint names the host)")
    func publicURLChange() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect((try await trust()).stdout.contains("A new local CA"))
        let other = try await trust(["--public-url", "https://emulator.test:8443"])
        #expect(other.stdout.contains("A new local CA"), "\(other.stdout)")
        #expect(!(try await trust(["--public-url", "https://emulator.test:8443"])).stdout.contains("A new local CA"))
    }

    @Test("unreadable CA files: a clear error naming the file, nothing replaced, and the emulator does not start")
    func unreadable() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect((try await trust()).status == 0)
        try Data("not a certificate".utf8).write(to: caFile)
        let refused = try await trust()
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(caFile.path) is not a PEM certificate"), "\(refused.stderr)")
        #expect(refused.stderr.contains("remove identity-emulator-ca.pem and identity-emulator-ca-key.pem"))
        #expect(try String(contentsOf: caFile, encoding: .utf8) == "not a certificate")
        let serve = try await CLIProcess.run(
            Binaries.url("identity-emulator"), ["--port", "0", "--tls", "--tls-directory", tls.path],
            environment: ["PATH": path])
        #expect(serve.status == 1)
        #expect(serve.stderr.contains("is not a PEM certificate"), "\(serve.stderr)")
    }

    @Test("the printed instructions make curl, Python's requests, Node.js, Go and Java trust the emulator")
    func instructionsWork() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let printed = try await trust()
        let ca = caFile.path
        for line in [
            "curl --cacert \(ca)", "REQUESTS_CA_BUNDLE=\(ca)", "NODE_EXTRA_CA_CERTS=\(ca)", "SSL_CERT_FILE=\(ca)",
            "keytool -importcert -noprompt -alias identity-emulator -file \(ca)", "MSAL_CA_BUNDLE=\(ca)",
            "identity-emulator trust --install --tls-directory \(tls.path)",
        ] {
            #expect(printed.stdout.contains(line), "missing: \(line)")
        }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: tls)) { emulator in
            #expect(!emulator.caCertificateIsNew)
            let url = "\(emulator.baseURL.absoluteString)/common/v2.0/.well-known/openid-configuration"
            #expect(try await curl(emulator.baseURL.absoluteString, ["--cacert", ca]) == 0)

            let python = try MSALPython.interpreter()
            let fetch = "import requests, sys; requests.get(sys.argv[1], timeout=30).raise_for_status()"
            #expect(try await run(python, ["-c", fetch, url], ["REQUESTS_CA_BUNDLE": ca]).status == 0)
            #expect(try await run(python, ["-c", fetch, url], [:]).status != 0)

            let node = URL(fileURLWithPath: "/usr/bin/node")
            let get = """
                require('https').get(process.argv[1], r => process.exit(r.statusCode === 200 ? 0 : 3))
                  .on('error', e => { console.error(e.message); process.exit(4) })
                """
            let trusted = try await run(node, ["-e", get, url], ["NODE_EXTRA_CA_CERTS": ca])
            #expect(trusted.status == 0, "\(trusted.stderr)")
            #expect(try await run(node, ["-e", get, url], [:]).status == 4)

            let source = folder.appendingPathComponent("fetch.go")
            try Data(
                """
                package main

                import (
                	"net/http"
                	"os"
                )

                func main() {
                	r, err := http.Get(os.Args[1])
                	if err != nil {
                		os.Stderr.WriteString(err.Error())
                		os.Exit(4)
                	}
                	if r.StatusCode != 200 {
                		os.Exit(3)
                	}
                }
                """.utf8
            ).write(to: source)
            let goFetch = folder.appendingPathComponent("fetch")
            let built = try await run(
                URL(fileURLWithPath: "/usr/bin/go"), ["build", "-o", goFetch.path, source.path],
                ["GOCACHE": folder.appendingPathComponent("go-cache").path, "GO111MODULE": "off"])
            #expect(built.status == 0, "\(built.stderr)")
            let goTrusted = try await run(goFetch, [url], ["SSL_CERT_FILE": ca])
            #expect(goTrusted.status == 0, "\(goTrusted.stderr)")
            #expect(try await run(goFetch, [url], [:]).status == 4)

            let store = folder.appendingPathComponent("identity-emulator.p12").path
            let keytool = try await run(
                URL(fileURLWithPath: "/usr/bin/keytool"),
                [
                    "-importcert", "-noprompt", "-alias", "identity-emulator", "-file", ca, "-keystore", store,
                    "-storetype", "PKCS12", "-storepass", "changeit",
                ], [:])
            #expect(keytool.status == 0, "\(keytool.stderr)")
            let program = folder.appendingPathComponent("Fetch.java")
            try Data(
                """
                public class Fetch {
                    public static void main(String[] a) throws Exception {
                        var c = (java.net.HttpURLConnection) new java.net.URI(a[0]).toURL().openConnection();
                        System.exit(c.getResponseCode() == 200 ? 0 : 3);
                    }
                }
                """.utf8
            ).write(to: program)
            let java = try await run(
                URL(fileURLWithPath: "/usr/bin/java"),
                [
                    "-Djavax.net.ssl.trustStore=\(store)", "-Djavax.net.ssl.trustStorePassword=changeit", program.path,
                    url,
                ], [:])
            #expect(java.status == 0, "\(java.stderr)")
            #expect(try await run(URL(fileURLWithPath: "/usr/bin/java"), [program.path, url], [:]).status != 0)
        }
    }

    @Test("--install puts the CA in a system store with update-ca-certificates; curl then trusts the store's bundle")
    func install() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (trust, isNew) = try CATrust.kept(in: tls)
        #expect(isNew)
        let store = folder.appendingPathComponent("store")
        let etc = store.appendingPathComponent("etc-ssl-certs")
        try FileManager.default.createDirectory(at: etc, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: store.appendingPathComponent("certs"), withIntermediateDirectories: true)
        try Data().write(to: store.appendingPathComponent("ca-certificates.conf"))
        let system = CATrust.SystemStore(
            localCertificates: store.appendingPathComponent("local"),
            updateArguments: [
                "--certsconf", store.appendingPathComponent("ca-certificates.conf").path,
                "--certsdir", store.appendingPathComponent("certs").path,
                "--localcertsdir", store.appendingPathComponent("local").path, "--etccertsdir", etc.path,
                "--hooksdir", store.appendingPathComponent("hooks").path,
            ],
            updateTool: URL(fileURLWithPath: "/usr/sbin/update-ca-certificates"))
        let report = try await Task.detached { try trust.install(system) }.value
        #expect(report.contains("1 added"), "\(report)")
        _ = try await Task.detached { try trust.install(system) }.value
        let bundle = etc.appendingPathComponent("ca-certificates.crt")
        let pem = try String(contentsOf: trust.caFile, encoding: .utf8)
        #expect(try String(contentsOf: bundle, encoding: .utf8) == pem, "installed once, whatever the number of runs")
        let status = try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: tls)) {
            emulator in try await curl(emulator.baseURL.absoluteString, ["--cacert", bundle.path])
        }
        #expect(status == 0)

        let missing = CATrust.SystemStore(
            localCertificates: system.localCertificates, updateArguments: [],
            updateTool: folder.appendingPathComponent("no-such-tool"))
        #expect(throws: CATrust.InstallError.self) { try trust.install(missing) }
    }

    private func run(_ binary: URL, _ arguments: [String], _ environment: [String: String]) async throws -> CLIResult {
        try await CLIProcess.run(
            binary, arguments, environment: environment.merging(["PATH": path, "HOME": folder.path]) { $1 })
    }
}
