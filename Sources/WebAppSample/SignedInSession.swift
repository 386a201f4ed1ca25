import MSAL

/// What the sample's pages need from the web framework's sign-in (MSALHummingbird's or MSALVapor's), for the
/// request being served.
protocol SignedInSession: Sendable {
    /// Where the sign-in routes live (`/auth`).
    var signInBasePath: String { get }

    /// The signed-in user's account; `nil` when nobody is signed in.
    func account() async throws -> Account?

    /// A token for `scopes` for the signed-in user.
    ///
    /// - Throws: the framework's redirect to a new sign-in that returns to this page, when nobody is signed in or the
    ///   identity platform wants the user back; ``MSALError`` otherwise.
    func token(scopes: [String]) async throws -> AuthenticationResult

    /// The hidden field with the session's anti-forgery token, for the page's own forms; `nil` when nobody is
    /// signed in.
    func antiForgeryInput() -> String?

    /// The sign-out button; `nil` when nobody is signed in.
    func signOutForm() -> String?

    /// The posted form's fields, when it carries the session's anti-forgery token; `nil` when nobody is signed in.
    ///
    /// - Throws: the framework's 403 when the form lacks the token.
    func postedForm() async throws -> [String: String]?

    /// The error that sends the browser to `location` (302), as the framework answers it.
    func redirect(to location: String) -> any Error
}
