import ArgumentParser

/// How `msal token` prints what it got (`--format`).
enum TokenFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// The access token alone, for `$(msal token)`.
    case token
    /// The token with what a script needs to use and renew it, as `--json` prints it.
    case json
    /// The JSON `az account get-access-token` prints (``TokenView/azureCLI(_:)``), for tools that read Azure CLI's
    /// answer.
    case az
    /// Azure CLI's values tab-separated on one line, as `az account get-access-token -o tsv` prints them, for
    /// `read` in a shell.
    case tsv
}
