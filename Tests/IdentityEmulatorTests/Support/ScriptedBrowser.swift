import Foundation
import Locking

/// A browser without JavaScript, driven by tests: it keeps cookies, follows the emulator's own
/// redirects, reads HTML forms and submits them by button id.
final class ScriptedBrowser: Sendable {
    private let emulator: TestEmulator
    private let cookies = Locked<[String: String]>([:])

    init(_ emulator: TestEmulator) { self.emulator = emulator }

    /// What the browser ended on.
    enum Outcome: Sendable {
        case page(Page)
        /// A redirect away from the emulator (to the app's redirect URI).
        case redirect(String)
    }

    /// Opens a URL and follows redirects that stay on the emulator.
    func open(_ url: String) async throws -> Outcome {
        try await handle(try await emulator.get(url, headers: cookieHeader()), url: url)
    }

    /// Opens a URL that must render a page.
    func page(_ url: String) async throws -> Page {
        guard case .page(let page) = try await open(url) else { throw TestFailure("expected a page at \(url)") }
        return page
    }

    /// Fills the form holding `button` and submits it with that button.
    func submit(_ page: Page, button: String, fields: [String: String] = [:]) async throws -> Outcome {
        guard let form = page.forms.first(where: { $0.buttons.contains { $0.id == button } }) else {
            throw TestFailure("no button #\(button) on page:\n\(page.html)")
        }
        var pairs = form.fields.map { ($0.name, fields[$0.name] ?? $0.value) }
        for (name, value) in fields where !form.fields.contains(where: { $0.name == name }) {
            pairs.append((name, value))
        }
        if let pressed = form.buttons.first(where: { $0.id == button }), let name = pressed.name {
            pairs.append((name, pressed.value ?? ""))
        }
        let result = try await emulator.post(form.action, form: pairs, headers: cookieHeader())
        return try await handle(result, url: form.action)
    }

    /// Submits and expects a page back.
    func submitForPage(_ page: Page, button: String, fields: [String: String] = [:]) async throws -> Page {
        guard case .page(let next) = try await submit(page, button: button, fields: fields) else {
            throw TestFailure("expected a page after #\(button)")
        }
        return next
    }

    /// Submits and expects the redirect to the app.
    func submitForRedirect(_ page: Page, button: String, fields: [String: String] = [:]) async throws -> String {
        guard case .redirect(let location) = try await submit(page, button: button, fields: fields) else {
            throw TestFailure("expected a redirect after #\(button)")
        }
        return location
    }

    var sessionCookie: String? { cookies.withLock { $0["ESTSAUTH"] } }

    /// The browser's id (`buid`), which the emulator binds each sign-in flow to.
    var browserCookie: String? { cookies.withLock { $0["buid"] } }

    private func cookieHeader() -> [(String, String)] {
        let jar = cookies.withLock { $0 }
        guard !jar.isEmpty else { return [] }
        return [("Cookie", jar.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    private func handle(_ result: HTTPResult, url: String) async throws -> Outcome {
        for header in result.headers[canonicalForm: "Set-Cookie"] {
            let pair = header.split(separator: ";")[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            cookies.withLock { jar in
                if header.contains("Max-Age=0") { jar[name] = nil } else { jar[name] = String(pair[1]) }
            }
        }
        if (300..<400).contains(result.status), let location = result.header("Location") {
            if location.hasPrefix(emulator.base) || location.hasPrefix("/") { return try await open(location) }
            return .redirect(location)
        }
        return .page(Page(status: result.status, html: result.body))
    }
}

/// An HTML page and its forms.
struct Page: Sendable {
    struct Field: Sendable {
        let name: String
        let value: String
    }
    struct Button: Sendable {
        let id: String?
        let name: String?
        let value: String?
    }
    struct HTMLForm: Sendable {
        let action: String
        let fields: [Field]
        let buttons: [Button]
    }

    let status: Int
    let html: String

    var forms: [HTMLForm] {
        Self.matches(#"<form method="post" action="([^"]*)">(.*?)</form>"#, in: html).map { groups in
            let inner = groups[1]
            let fields = Self.matches(#"<input ([^>]*)>"#, in: inner).compactMap { tag -> Field? in
                let attributes = Self.attributes(tag[0])
                guard let name = attributes["name"] else { return nil }
                return Field(name: name, value: attributes["value"] ?? "")
            }
            let buttons = Self.matches(#"<button ([^>]*)>"#, in: inner).map { tag in
                let attributes = Self.attributes(tag[0])
                return Button(id: attributes["id"], name: attributes["name"], value: attributes["value"])
            }
            return HTMLForm(action: Self.unescape(groups[0]), fields: fields, buttons: buttons)
        }
    }

    /// The text of the element with this id.
    func text(id: String) -> String? {
        Self.matches(#"id="\#(id)"[^>]*>([^<]*)<"#, in: html).first.map { Self.unescape($0[0]) }
    }

    func contains(_ text: String) -> Bool { html.contains(text) }

    private static func attributes(_ tag: String) -> [String: String] {
        var out: [String: String] = [:]
        for groups in matches(#"([a-zA-Z-]+)="([^"]*)""#, in: tag) { out[groups[0]] = unescape(groups[1]) }
        return out
    }

    static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// The capture groups of each match of `pattern` in `text` (`""` for a group that took no part).
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            return []
        }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (1..<match.numberOfRanges).map { i in
                let range = match.range(at: i)
                return range.location == NSNotFound ? "" : ns.substring(with: range)
            }
        }
    }
}
