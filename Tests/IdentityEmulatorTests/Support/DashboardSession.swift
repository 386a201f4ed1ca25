import Foundation
import Testing

/// The emulator's dashboard as a browser on its own origin uses it: pages fetched, forms posted with the anti-forgery
/// token the pages carry, `Origin` and `Sec-Fetch-Site` as a browser sends them (each overridable, to play another
/// site).
struct DashboardSession: Sendable {
    let emulator: TestEmulator

    /// Every page a GET serves, with the paths that need state (a user, an app, a logged request) filled in.
    static let fixedPages = [
        "/_emulator/", "/_emulator/ui/users", "/_emulator/ui/log", "/_emulator/ui/outbox", "/_emulator/ui/inspector",
        "/_emulator/ui/controls",
    ]

    /// A page that must be served (200, HTML).
    func page(_ path: String) async throws -> HTTPResult {
        let result = try await emulator.get(path)
        #expect(result.status == 200, "\(path): \(result.status) \(result.body)")
        #expect(result.header("Content-Type")?.hasPrefix("text/html") == true, "\(path)")
        return result
    }

    /// The anti-forgery token the pages' forms carry.
    func token() async throws -> String {
        let html = try await page("/_emulator/ui/users").body
        return try #require(Self.value(of: "csrf_token", in: html), "no anti-forgery token on the users page")
    }

    /// Posts a form to `path` as the dashboard's own page does, unless told otherwise.
    func post(
        _ path: String, _ fields: [(String, String)], token: String?, origin: String? = nil,
        fetchSite: String? = "same-origin"
    ) async throws -> HTTPResult {
        var headers: [(String, String)] = [("Origin", origin ?? emulator.base)]
        if let fetchSite { headers.append(("Sec-Fetch-Site", fetchSite)) }
        let form = fields + (token.map { [("csrf_token", $0)] } ?? [])
        return try await emulator.post(path, form: form, headers: headers)
    }

    /// The `value` of the first input named `name` in `html`.
    static func value(of name: String, in html: String) -> String? {
        guard let range = html.range(of: #"name="\#(name)" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// The object id of the user the dashboard's redirect after adding them names.
    static func userID(inRedirect location: String?) -> String? {
        guard let location, let range = location.range(of: "/_emulator/ui/users/") else { return nil }
        return String(location[range.upperBound...].prefix { $0 != "?" })
    }
}
