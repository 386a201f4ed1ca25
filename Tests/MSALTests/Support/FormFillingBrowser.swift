import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import Locking
import MSAL

/// A browser without JavaScript for an identity provider's plain HTML pages (an outside provider's, not the
/// emulator's, which ``AutomatedUser`` knows): it keeps cookies, follows redirects, signs in on a page with a
/// password field, presses the `allow` button of a consent or sign-out page, and follows the last redirect to the
/// app's loopback listener.
final class FormFillingBrowser: BrowserLauncher, Sendable {
    private let session: BrowserSession
    private let username: String
    private let password: String
    private let visited = Locked<[String]>([])

    /// - Parameter http: a client that does not follow redirects.
    init(http: HTTPClient, username: String, password: String) {
        session = BrowserSession(http: http)
        self.username = username
        self.password = password
    }

    /// The pages seen, in order: `signin`, `consent`, `signout`, `page` (one with no form, where it stopped).
    var pagesSeen: [String] { visited.withLock { $0 } }

    func open(_ url: URL) async throws {
        var current = url
        var response = try await session.request(current.absoluteString, form: nil)
        for _ in 0..<12 {
            if let location = response.location {
                let target = URL(string: location, relativeTo: current)!.absoluteURL
                response = try await session.request(target.absoluteString, form: nil)
                if target.port != url.port { return }
                current = target
                continue
            }
            guard let form = Self.forms(response.body).first else {
                visited.withLock { $0.append("page") }
                return
            }
            var fields = form.inputs.filter { $0.type == "hidden" }.map { ($0.name, $0.value) }
            if form.inputs.contains(where: { $0.type == "password" }) {
                visited.withLock { $0.append("signin") }
                fields += [("username", username), ("password", password)]
            } else if let allow = form.inputs.first(where: { $0.name == "allow" }) {
                visited.withLock { $0.append(allow.value.lowercased().contains("logout") ? "signout" : "consent") }
                fields.append((allow.name, allow.value))
            } else {
                throw BrowserError("unexpected page at \(current):\n\(response.body)")
            }
            let action = form.action.isEmpty ? current : URL(string: form.action, relativeTo: current)!.absoluteURL
            response = try await session.request(action.absoluteString, form: fields)
            current = action
        }
        throw BrowserError("too many pages after \(url)")
    }

    private struct Form {
        struct Input {
            let type: String
            let name: String
            let value: String
        }
        let action: String
        let inputs: [Input]
    }

    private static func forms(_ html: String) -> [Form] {
        HTMLScraping.matches(#"<form([^>]*)>(.*?)</form>"#, html).map { groups in
            let inputs = HTMLScraping.matches(#"<input([^>]*)>"#, groups[1]).compactMap { tag -> Form.Input? in
                let attributes = self.attributes(tag[0])
                guard let name = attributes["name"] else { return nil }
                return Form.Input(
                    type: attributes["type"]?.lowercased() ?? "text", name: name, value: attributes["value"] ?? "")
            }
            return Form(action: attributes(groups[0])["action"] ?? "", inputs: inputs)
        }
    }

    private static func attributes(_ tag: String) -> [String: String] {
        var out: [String: String] = [:]
        for groups in HTMLScraping.matches(#"([a-zA-Z_-]+)="([^"]*)""#, tag) {
            out[groups[0].lowercased()] = HTMLScraping.unescape(groups[1])
        }
        return out
    }
}

/// The browser met a page it does not know what to do with.
struct BrowserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
