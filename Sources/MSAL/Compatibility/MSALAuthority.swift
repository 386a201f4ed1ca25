import Foundation

/// Where users sign in (MSAL's `MSALAuthority`), over the core ``Authority``.
///
/// `@unchecked Sendable` invariant: instances are immutable (only `let` properties of Sendable types)
/// and subclasses add no stored state.
open class MSALAuthority: @unchecked Sendable {
    /// The core authority this object stands for.
    let authority: Authority

    init(_ authority: Authority) {
        self.authority = authority
    }

    /// The normalised URL, e.g. `https://login.microsoftonline.com/common`.
    public var url: URL { authority.url }

    /// An authority of the kind its host suggests (Entra ID, External ID, B2C); "may misclassify", as
    /// MSAL warns: prefer the subclasses.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` for a malformed or non-https URL.
    open class func authority(with url: URL) throws -> MSALAuthority {
        let authority = try Authority(url.absoluteString)
        switch authority.kind {
        case .aad: return MSALAADAuthority(authority)
        case .ciam: return MSALCIAMAuthority(authority)
        case .b2c: return MSALB2CAuthority(authority)
        case .oidc: return MSALAuthority(authority)
        }
    }
}

/// A Microsoft Entra ID authority: `https://login.microsoftonline.com/{tenant|common|organizations|consumers}`.
public final class MSALAADAuthority: MSALAuthority, @unchecked Sendable {
    /// An Entra ID authority from its URL.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` for a URL without a tenant or not https
    ///   (plain http only on loopback, e.g. the identity emulator).
    public init(url: URL) throws {
        super.init(try Authority(url.absoluteString, kind: .aad))
    }

    override init(_ authority: Authority) {
        super.init(authority)
    }
}

/// An External ID (CIAM) authority: `https://{tenant}.ciamlogin.com[/{tenant}.onmicrosoft.com]`.
public final class MSALCIAMAuthority: MSALAuthority, @unchecked Sendable {
    /// An External ID authority from its URL; a bare `https://{tenant}.ciamlogin.com` gains the tenant path.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` for a malformed or non-https URL.
    public init(url: URL) throws {
        super.init(try Authority(url.absoluteString, kind: .ciam))
    }

    override init(_ authority: Authority) {
        super.init(authority)
    }
}

/// An Azure AD B2C authority: `https://{host}/tfp/{tenant}/{policy}` or `https://{host}/{tenant}/{policy}`.
public final class MSALB2CAuthority: MSALAuthority, @unchecked Sendable {
    /// A B2C authority from its URL.
    ///
    /// - Throws: ``MSALError`` `internal` / `invalidParameter` for a URL without tenant and policy.
    public init(url: URL) throws {
        super.init(try Authority(url.absoluteString, kind: .b2c))
    }

    override init(_ authority: Authority) {
        super.init(authority)
    }
}
