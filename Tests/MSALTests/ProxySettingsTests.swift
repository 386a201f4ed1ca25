import Foundation
import Testing

@testable import MSAL

/// Proxy selection from the environment, as curl, Python's `requests` and Azure CLI make it.
@Suite("Proxy settings")
struct ProxySettingsTests {
    private func settings(_ environment: [String: String]) throws -> ProxySettings? {
        try ProxySettings(environment: environment)
    }

    @Test("HTTPS_PROXY for https, HTTP_PROXY for http, ALL_PROXY for either; lower case wins; no scheme means http")
    func variables() throws {
        let both = try #require(
            try settings(["HTTPS_PROXY": "http://upper:3128", "https_proxy": "lower:8080", "HTTP_PROXY": "plain:80"]))
        #expect(
            both.proxy(for: URL(string: "https://login.microsoftonline.com/x")!)?.absoluteString == "http://lower:8080")
        #expect(both.proxy(for: URL(string: "http://169.254.169.254/metadata")!)?.absoluteString == "http://plain:80")
        let all = try #require(try settings(["ALL_PROXY": "http://all:1"]))
        #expect(all.proxy(for: URL(string: "https://graph.microsoft.com")!)?.host == "all")
        #expect(try settings([:]) == nil)
        #expect(try settings(["HTTPS_PROXY": "  "]) == nil)
        let httpsOnly = try #require(try settings(["https_proxy": "http://p:1"]))
        #expect(httpsOnly.proxy(for: URL(string: "http://example.com")!) == nil)
    }

    @Test(
        "NO_PROXY: *, names and their subdomains (with or without a dot), addresses, CIDR blocks, ports, any case",
        arguments: [
            ("example.com", "https://example.com/", true), ("example.com", "https://login.EXAMPLE.com/", true),
            ("example.com", "https://notexample.com/", false), (".example.com", "https://example.com/", true),
            ("*.example.com", "https://a.example.com/", true), ("*", "https://anything.test/", true),
            ("127.0.0.1", "https://127.0.0.1:8443/", true), ("127.0.0.1", "https://localhost/", false),
            ("10.0.0.0/8", "http://10.20.30.40/", true), ("10.0.0.0/8", "http://11.0.0.1/", false),
            ("::1", "https://[::1]:9000/", true), ("[::1]", "https://[::1]/", true),
            ("fd00::/8", "https://[fd12::1]/", true), ("fd00::/8", "https://[fe80::1]/", false),
            ("example.com:8443", "https://example.com:8443/", true),
            ("example.com:8443", "https://example.com/", false),
            ("localhost, 127.0.0.1", "https://localhost:1234/", true), ("EXAMPLE.COM", "https://example.com./", true),
            ("example.com, *", "https://other.test/", false),
        ])
    func noProxy(entry: String, url: String, direct: Bool) throws {
        let settings = try #require(
            try settings(["HTTPS_PROXY": "http://proxy:3128", "HTTP_PROXY": "proxy:3128", "no_proxy": entry]))
        #expect((settings.proxy(for: URL(string: url)!) == nil) == direct)
    }

    @Test("a proxy that is not an http:// URL with a host is refused, naming the variable, not echoing credentials")
    func invalid() {
        for value in ["https://user:s3cret@proxy:443", "socks5://proxy:1080", "http://"] {
            do {
                _ = try settings(["HTTPS_PROXY": value])
                Issue.record("accepted \(value)")
            } catch {
                let text = String(describing: error)
                #expect(text.contains("HTTPS_PROXY"), "\(text)")
                #expect(!text.contains("s3cret"))
            }
        }
    }

    @Test("in a CGI program (REQUEST_METHOD set) the upper-case HTTP_PROXY is ignored; http_proxy and ALL_PROXY apply")
    func httpoxy() throws {
        let plain = URL(string: "http://169.254.169.254/metadata")!
        let header = ["HTTP_PROXY": "http://attacker:8080"]
        #expect(try settings(header)?.proxy(for: plain)?.host == "attacker", "outside CGI it is a proxy")
        #expect(try settings(header.merging(["REQUEST_METHOD": "GET"]) { $1 }) == nil)
        #expect(try settings(header.merging(["REQUEST_METHOD": ""]) { $1 }) == nil)
        let lower = try settings(header.merging(["REQUEST_METHOD": "POST", "http_proxy": "http://corp:3128"]) { $1 })
        #expect(lower?.proxy(for: plain)?.host == "corp")
        let all = try settings(header.merging(["REQUEST_METHOD": "POST", "ALL_PROXY": "http://all:3128"]) { $1 })
        #expect(all?.proxy(for: plain)?.host == "all")
        let https = try settings(
            header.merging(["REQUEST_METHOD": "GET", "HTTPS_PROXY": "http://corp:3128"]) { $1 })
        #expect(https?.proxy(for: URL(string: "https://login.microsoftonline.com/")!)?.host == "corp")
        #expect(https?.proxy(for: plain) == nil)
    }
}
