import IdentityEmulator

/// What `identity-emulator` prints once it listens: where it is and how to sign in.
struct Banner {
    let running: RunningEmulator

    init(_ running: RunningEmulator) { self.running = running }

    var text: String {
        let base = running.baseURL.absoluteString
        let directory = running.directory
        var lines = ["identity-emulator listening on \(base)"]
        if running.issuerOrigin != running.baseURL {
            lines.append("Every issuer names \(running.issuerOrigin.absoluteString)")
        }
        lines.append("")
        if let ca = running.caCertificateFile {
            lines += [
                "TLS CA certificate: \(ca.path)"
                    + (running.caCertificateIsNew
                        ? " (new: `identity-emulator trust` says how to trust it)" : " (kept from an earlier start)"),
                "  curl --cacert \(ca.path) \(base)/common/v2.0/.well-known/openid-configuration", "",
            ]
        }
        let setup = ClientSetup(running: running).lines
        if !setup.isEmpty { lines += setup + [""] }
        lines.append("Authorities:")
        for tenant in directory.tenants {
            let kind = tenant.kind == .external ? "External ID" : "workforce"
            lines.append("  \(base)/\(tenant.id)  (\(tenant.displayName), \(kind); also /\(tenant.domain))")
        }
        lines += ["  \(base)/common  and  \(base)/organizations", "", "Applications:"]
        for app in directory.applications {
            lines.append(
                "  \(app.clientId)  \(app.displayName) [\(app.kind.rawValue)]\(app.secret.map { " secret: \($0)" } ?? "")"
            )
        }
        lines += ["", "Users (demo passwords):"]
        for user in directory.users {
            lines.append("  \(user.userPrincipalName)  \(user.password ?? "(email code only)")")
        }
        if !directory.hosts.isEmpty { lines += ["", "Managed identity hosts (set these variables as Azure would):"] }
        for host in directory.hosts {
            let variables = running.managedIdentityEnvironment(host: host.name) ?? [:]
            lines.append(
                "  \(host.name) [\(host.kind.rawValue)]  "
                    + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        }
        lines += ["", "Graph: \(base)/v1.0/me   Admin API: \(base)/_emulator/directory", "Press Ctrl-C to stop."]
        return lines.joined(separator: "\n")
    }
}
