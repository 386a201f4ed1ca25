import Foundation
import WebText

/// One user (`GET /_emulator/ui/users/{object id}`): their profile (editable), a password reset, disabling the
/// account, their browser sessions and refresh tokens (masked) with the button that revokes them, and their MFA
/// requirement and methods.
struct UserPage: Sendable {
    let frame: DashboardFrame
    let index: DirectoryIndex
    let user: User
    let sessions: [BrowserSession]
    let refreshTokens: [(token: String, grant: RefreshTokenGrant)]

    /// Whether the account can sign in, as a badge.
    static func status(_ user: User) -> String {
        user.accountEnabled == false ? #"<span class="bad">disabled</span>"# : #"<span class="ok">enabled</span>"#
    }

    func render(notice: String? = nil, error: String? = nil) -> String {
        let base = "/_emulator/ui/users/\(DashboardFrame.segment(user.id))"
        let profile = [
            ("displayName", "Display name", user.displayName), ("givenName", "Given name", user.givenName ?? ""),
            ("surname", "Surname", user.surname ?? ""), ("jobTitle", "Job title", user.jobTitle ?? ""),
            ("mail", "Mail", user.mail ?? ""), ("mobilePhone", "Mobile phone", user.mobilePhone ?? ""),
        ].map { DashboardFrame.field($0.0, label: $0.1, value: $0.2) }.joined()
        let sessionRows = sessions.map { session in
            [
                HTMLText.escape(SecretMasking.mask(session.id)),
                "\(session.userIDs.count) account\(session.userIDs.count == 1 ? "" : "s")",
            ]
        }
        let tokenRows = refreshTokens.sorted { $0.grant.issuedAt > $1.grant.issuedAt }.map { entry in
            [
                HTMLText.escape(index.application(clientID: entry.grant.clientID)?.displayName ?? entry.grant.clientID),
                DashboardFrame.code(entry.grant.clientID), DashboardFrame.code(entry.grant.tenantID),
                DashboardFrame.date(entry.grant.issuedAt),
                HTMLText.escape(entry.grant.familyID.map { "family \($0)" } ?? ""),
                HTMLText.escape(SecretMasking.mask(entry.token)),
            ]
        }
        let methods = (user.strongAuthMethods ?? []).map { method in
            [
                HTMLText.escape(method.channel), DashboardFrame.code(method.target), DashboardFrame.code(method.id),
                frame.form(
                    action: "\(base)/methods/\(DashboardFrame.segment(method.id))/delete", button: "Remove",
                    id: "remove-\(method.id)", style: "danger"),
            ]
        }
        let requirement: String =
            switch user.mfaRequired {
            case true?: "required"
            case false?: "not-required"
            case nil: "tenant"
            }
        let enabled = user.accountEnabled != false
        return frame.page(
            user.displayName, section: .users,
            body: """
                <p><a href="/_emulator/ui/users">All users</a></p>
                <section><h2>Account</h2><dl>
                <dt>User principal name</dt><dd>\(DashboardFrame.code(user.userPrincipalName))</dd>
                <dt>Object id</dt><dd>\(DashboardFrame.code(user.id))</dd>
                <dt>Home tenant</dt><dd>\(HTMLText.escape(index.tenant(id: user.tenant)?.displayName ?? user.tenant))</dd>
                <dt>Status</dt><dd id="status">\(Self.status(user))</dd>
                </dl>
                \(frame.form(
                    action: "\(base)/enabled", content: HTML.hidden("enabled", enabled ? "false" : "true"),
                    button: enabled ? "Disable the account (and revoke its sessions)" : "Enable the account",
                    id: enabled ? "disable" : "enable", style: enabled ? "danger" : nil))
                </section>
                <section><h2>Profile</h2>
                \(frame.form(action: "\(base)/profile", content: profile, button: "Save profile", id: "save-profile"))
                </section>
                <section><h2>Password</h2>
                <p>A new password also revokes the user's sessions and refresh tokens, as a reset in Entra does.</p>
                \(frame.form(
                    action: "\(base)/password",
                    content: DashboardFrame.field("password", label: "New password", type: "password", id: "new-password", required: true, autocomplete: "new-password"),
                    button: "Reset password", id: "reset-password"))
                </section>
                <section><h2>Sessions and refresh tokens</h2>
                <h3>Browser sessions (SSO)</h3>
                \(sessionRows.isEmpty ? #"<p class="muted" id="no-sessions">No sessions.</p>"# : DashboardFrame.table(["Session", "Accounts in it"], sessionRows, id: "sessions"))
                <h3>Refresh tokens</h3>
                \(tokenRows.isEmpty ? #"<p class="muted" id="no-refresh-tokens">No refresh tokens.</p>"# : DashboardFrame.table(["Application", "Client id", "Tenant", "Issued", "Family", "Token"], tokenRows, id: "refresh-tokens"))
                \(frame.form(action: "\(base)/revoke", button: "Revoke sessions and refresh tokens", id: "revoke", style: "danger"))
                </section>
                <section><h2>Multi-factor authentication</h2>
                \(frame.form(
                    action: "\(base)/mfa",
                    content: DashboardFrame.select(
                        "mfaRequired", label: "Second factor (native authentication)",
                        options: [("tenant", "As the tenant says"), ("required", "Required"), ("not-required", "Not required")],
                        selected: requirement),
                    button: "Save", id: "save-mfa"))
                <h3>Methods</h3>
                \(methods.isEmpty ? #"<p class="muted" id="no-methods">No methods registered.</p>"# : DashboardFrame.table(["Channel", "Sends codes to", "Method id", "Action"], methods, id: "methods"))
                <h3>Add a method</h3>
                \(frame.form(
                    action: "\(base)/methods",
                    content: DashboardFrame.select("channel", label: "Channel", options: [("email", "Email"), ("sms", "Text message")])
                        + DashboardFrame.field("target", label: "Email address or phone number (+15555550123)", required: true),
                    button: "Add method", id: "add-method"))
                </section>
                """, notice: notice, error: error)
    }
}
