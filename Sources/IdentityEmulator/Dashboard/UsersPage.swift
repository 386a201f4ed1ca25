import WebText

/// The users (`GET /_emulator/ui/users`): every user of every tenant, whether they can sign in and their MFA
/// methods, each linking to their own page; and the form that adds one.
struct UsersPage: Sendable {
    let frame: DashboardFrame
    let index: DirectoryIndex

    func render(notice: String? = nil, error: String? = nil, draft: FormBody? = nil) -> String {
        let directory = index.directory
        let rows = directory.users.map { user in
            [
                #"<a href="/_emulator/ui/users/\#(DashboardFrame.segment(user.id))">\#(HTMLText.escape(user.displayName))</a>"#,
                DashboardFrame.code(user.userPrincipalName),
                HTMLText.escape(index.tenant(id: user.tenant)?.displayName ?? user.tenant),
                UserPage.status(user),
                user.password == nil ? "email code only" : "password",
                "\((user.strongAuthMethods ?? []).count)",
            ]
        }
        let tenants = directory.tenants.map { ($0.id, "\($0.displayName) (\($0.domain))") }
        return frame.page(
            "Users", section: .users,
            body: """
                <section><h2>Directory users</h2>
                \(DashboardFrame.table(["Name", "User principal name", "Tenant", "Account", "Signs in with", "MFA methods"], rows, id: "users"))
                </section>
                <section><h2>Add a user</h2>
                \(frame.form(
                    action: "/_emulator/ui/users",
                    content: DashboardFrame.select("tenant", label: "Tenant", options: tenants, selected: draft?["tenant"])
                        + DashboardFrame.field("userPrincipalName", label: "User principal name (name@domain)", value: draft?["userPrincipalName"] ?? "", type: "email", required: true)
                        + DashboardFrame.field("displayName", label: "Display name", value: draft?["displayName"] ?? "", required: true)
                        + DashboardFrame.field("password", label: "Password", type: "password", required: true, autocomplete: "new-password"),
                    button: "Add user", id: "add-user"))
                </section>
                """, notice: notice, error: error)
    }
}
