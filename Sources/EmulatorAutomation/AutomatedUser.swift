import AsyncHTTPClient
import Foundation
import Locking
import MSAL
import NIOHTTP1

/// A user at a browser without JavaScript, for ``BrowserLauncher``: opens the authorize URL, signs
/// in, picks an account or consents as told, and follows the final redirect to the app's loopback
/// listener, exactly as a browser would. Drives the identity emulator's HTML pages (the demo and tests).
public final class AutomatedUser: BrowserLauncher, Sendable {
    /// What the user does on the next sign-in page.
    public enum Choice: Sendable {
        case signIn(username: String, password: String)
        case pick(objectID: String)
        case cancel
        /// "Forgot your password?" on a B2C sign-up or sign-in page.
        case forgotPassword
        /// On a B2C password reset page: the account's email, the code the emulator's outbox got, a new password.
        case resetPassword(email: String, newPassword: String)
        /// On a B2C profile edit page: a new display name.
        case editProfile(displayName: String)
    }

    private let http: HTTPClient
    private let session: BrowserSession
    private let choices: Locked<[Choice]>
    private let visited = Locked<[String]>([])
    let consent: Bool

    /// - Parameters:
    ///   - http: a client that does not follow redirects (the user follows them).
    ///   - choices: what to do on successive sign-in pages.
    ///   - consent: accept (true) or cancel the consent page.
    public init(http: HTTPClient, choices: [Choice], consent: Bool = true) {
        self.http = http
        session = BrowserSession(http: http)
        self.choices = Locked(choices)
        self.consent = consent
    }

    /// Queues what the user does next time a sign-in page shows.
    public func then(_ choice: Choice) { choices.withLock { $0.append(choice) } }

    /// Puts a cookie in the browser's jar (one jar for every loopback site), as if a site had set it: a web app's
    /// session, when the test started the sign-in at the app.
    public func setCookie(_ name: String, _ value: String) { session.setCookie(name, value) }

    /// A cookie in the browser's jar, as the last response that set it left it.
    public func cookie(_ name: String) -> String? { session.cookie(name) }

    /// The pages seen, by kind (`signin`, `picker`, `consent`, `signedout`, `form_post`, `passwordreset`,
    /// `profileedit`), in order.
    public var pagesSeen: [String] { visited.withLock { $0 } }

    /// Opens `url` and does what the choices say on each sign-in page, up to the redirect back to the app.
    ///
    /// - Throws: ``AutomationError`` when the sign-in page refuses the user (a wrong password, an account the
    ///   tenant does not have) and no choice is left to try, with the page's error; an unexpected page.
    public func open(_ url: URL) async throws {
        var result = try await session.request(url.absoluteString, form: nil)
        var username: String?
        for _ in 0..<10 {
            if let location = result.location {
                let target = URL(string: location, relativeTo: url)!.absoluteURL
                result = try await session.request(target.absoluteString, form: nil)
                if target.port != url.port { return }
                continue
            }
            let page = result.body
            if page.contains("id=\"signin\"") && !page.contains("Pick an account") {
                visited.withLock { $0.append("signin") }
                let choice = next()
                if choice == nil, let refusal = Self.error(on: page, naming: username) {
                    throw AutomationError(description: "The sign-in page refused the sign-in: \(refusal)")
                }
                switch choice {
                case .signIn(let name, let password)?:
                    username = name
                    result = try await submit(
                        page, base: url, button: "signin", fields: ["username": name, "password": password])
                case .forgotPassword?:
                    result = try await submit(page, base: url, button: "forgotpassword", fields: [:])
                default:
                    result = try await submit(page, base: url, button: "cancel", fields: [:])
                }
            } else if page.contains("id=\"sendcode\"") {
                visited.withLock { $0.append("passwordreset") }
                guard case .resetPassword(let email, let newPassword)? = next() else {
                    result = try await submit(page, base: url, button: "cancel", fields: [:])
                    continue
                }
                let verify = try await submit(page, base: url, button: "sendcode", fields: ["email": email])
                let code = try await Outbox(base: URL(string: "/", relativeTo: url)!.absoluteURL, http: http)
                    .lastCode(to: email)
                result = try await submit(
                    verify.body, base: url, button: "resetverify", fields: ["code": code, "newPassword": newPassword])
            } else if page.contains("id=\"profilesave\"") {
                visited.withLock { $0.append("profileedit") }
                guard case .editProfile(let displayName)? = next() else {
                    result = try await submit(page, base: url, button: "cancel", fields: [:])
                    continue
                }
                result = try await submit(page, base: url, button: "profilesave", fields: ["displayName": displayName])
            } else if page.contains("Pick an account") {
                visited.withLock { $0.append("picker") }
                switch next() {
                case .pick(let objectID)?:
                    result = try await submit(
                        page, base: url, button: nil, fields: ["account": objectID, "action": "pick"])
                case .signIn(let name, let password)?:
                    username = name
                    let signIn = try await submit(page, base: url, button: "other", fields: [:])
                    result = try await submit(
                        signIn.body, base: url, button: "signin", fields: ["username": name, "password": password])
                default:
                    result = try await submit(page, base: url, button: "cancel", fields: [:])
                }
            } else if page.contains("You signed out") {
                visited.withLock { $0.append("signedout") }
                return
            } else if page.contains("<title>Working...</title>"), let form = Self.forms(page).first {
                // response_mode=form_post: without JavaScript the user clicks Submit, posting the response to the app.
                visited.withLock { $0.append("form_post") }
                _ = try await session.request(
                    URL(string: form.action, relativeTo: url)!.absoluteString, form: Self.hiddenFields(form.html))
                return
            } else if page.contains("Permissions requested") {
                visited.withLock { $0.append("consent") }
                result = try await submit(page, base: url, button: consent ? "accept" : "cancel", fields: [:])
            } else {
                throw AutomationError(description: "unexpected page:\n\(page)")
            }
        }
    }

    private func next() -> Choice? {
        choices.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    private func submit(_ page: String, base: URL, button: String?, fields: [String: String]) async throws
        -> BrowserSession.Page
    {
        let forms = Self.forms(page)
        guard
            let form = forms.first(where: {
                button == nil ? $0.html.contains("name=\"account\"") : $0.html.contains("id=\"\(button!)\"")
            })
        else {
            throw AutomationError(description: "no form for \(button ?? "account") on:\n\(page)")
        }
        var pairs = Self.hiddenFields(form.html)
        if let button, let value = Self.buttonValue(form.html, id: button) { pairs.append(("action", value)) }
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { pairs.append((name, value)) }
        let action = URL(string: form.action, relativeTo: base)!.absoluteString
        return try await session.request(action, form: pairs)
    }

    private static func forms(_ html: String) -> [(action: String, html: String)] {
        HTMLScraping.matches(#"<form method="post" action="([^"]*)">(.*?)</form>"#, html).map {
            (HTMLScraping.unescape($0[0]), $0[1])
        }
    }

    private static func hiddenFields(_ html: String) -> [(String, String)] {
        HTMLScraping.matches(#"<input type="hidden" name="([^"]*)" value="([^"]*)">"#, html).map {
            (HTMLScraping.unescape($0[0]), HTMLScraping.unescape($0[1]))
        }
        .filter { $0.0 != "action" }
    }

    /// The error a page shows (`AADSTS50126: …`), with the username the user typed left out, or `nil`.
    private static func error(on page: String, naming username: String?) -> String? {
        guard let shown = HTMLScraping.matches(#"<p class="error" id="error">(.*?)</p>"#, page).first?[0] else {
            return nil
        }
        let text = HTMLScraping.unescape(shown)
        guard let username, !username.isEmpty else { return text }
        return text.replacingOccurrences(of: username, with: "(the username)")
    }

    private static func buttonValue(_ html: String, id: String) -> String? {
        HTMLScraping.matches(#"<button[^>]*value="([^"]*)"[^>]*id="\#(id)""#, html).first?[0]
    }
}

/// The emulator showed something the automated user did not expect.
public struct AutomationError: Error, CustomStringConvertible {
    public let description: String
}
