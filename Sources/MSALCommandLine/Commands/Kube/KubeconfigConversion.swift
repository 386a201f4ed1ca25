import Yams

/// Rewrites a kubeconfig's users that get Entra tokens through kubelogin (`exec` running `kubelogin get-token …`) or
/// the legacy `azure` auth provider (`auth-provider: {name: azure, config: {apiserver-id, client-id, tenant-id,
/// environment}}`) to run `msal kube get-token …` with the same arguments; every other user, cluster and context is
/// left as it was. Kubeconfigs are YAML (JSON is YAML too); the answer is YAML, its keys in their order, without the
/// comments the file had (as kubectl and kubelogin write kubeconfigs).
enum KubeconfigConversion {
    /// The converted kubeconfig and the names of the users it rewrote.
    struct Result: Sendable, Equatable {
        let text: String
        let converted: [String]
    }

    /// The exec API version a converted auth provider gets: the one every kubectl from 1.11 on speaks.
    static let execAPIVersion = "client.authentication.k8s.io/v1beta1"

    /// kubelogin `get-token`'s flags that `msal kube get-token` takes, each with a value.
    static let knownFlags: Set<String> = [
        "-l", "--login", "--server-id", "--client-id", "-t", "--tenant-id", "-e", "--environment", "--authority-host",
        "--client-certificate", "--federated-token-file", "--identity-resource-id", "--cache-dir", "--token-cache-dir",
        "--client-secret",
    ]

    /// - Parameter login: the login mode for every converted user (kubelogin's `-l`); each keeps its own when `nil`
    ///   (an auth provider's becomes `devicecode`).
    /// - Throws: ``UsageError`` for a file that is not a kubeconfig, or a user whose kubelogin arguments have no
    ///   msal equivalent (naming the user and the flag).
    static func convert(_ yaml: String, login: String?) throws -> Result {
        let parsed: Node?
        do {
            parsed = try Yams.compose(yaml: yaml)
        } catch {
            throw UsageError("The kubeconfig is not YAML: \(error)")
        }
        guard var root = parsed, root.mapping != nil else {
            throw UsageError("The kubeconfig holds no mapping (apiVersion, clusters, users, …).")
        }
        guard let users = root["users"]?.sequence else { return Result(text: yaml, converted: []) }
        var converted: [String] = []
        var rewritten: [Node] = []
        for var entry in users {
            let name = entry["name"]?.string ?? "(unnamed)"
            if var user = entry["user"], let exec = try execForMSAL(user, name: name, login: login) {
                user["exec"] = exec
                entry["user"] = removing("auth-provider", from: user)
                converted.append(name)
            }
            rewritten.append(entry)
        }
        guard !converted.isEmpty else { return Result(text: yaml, converted: []) }
        root["users"] = Node(rewritten)
        return Result(text: try Yams.serialize(node: root), converted: converted)
    }

    /// The `exec` that runs msal for `user`; `nil` for a user that neither kubelogin nor the azure provider signs in.
    private static func execForMSAL(_ user: Node, name: String, login: String?) throws -> Node? {
        if let provider = user["auth-provider"], provider["name"]?.string == "azure" {
            return try execForAzureProvider(provider["config"], name: name, login: login)
        }
        guard var exec = user["exec"], let command = exec["command"]?.string,
            let arguments = exec["args"]?.sequence?.compactMap(\.string)
        else { return nil }
        let program = command.split(separator: "/").last.map(String.init) ?? command
        let rest: ArraySlice<String>
        if program == "kubelogin", arguments.first == "get-token" {
            rest = arguments.dropFirst()
        } else if program == "msal", arguments.starts(with: ["kube", "get-token"]) {
            rest = arguments.dropFirst(2)
        } else {
            return nil
        }
        let (translated, secret) = try translate(rest, name: name, login: login)
        exec["command"] = Node("msal")
        exec["args"] = Node((["kube", "get-token"] + translated).map { Node($0) })
        // kubelogin's install hint names kubelogin.
        exec = removing("installHint", from: exec)
        if let secret {
            var variables = exec["env"]?.sequence.map(Array.init) ?? []
            variables.append(
                Node([(Node("name"), Node("AAD_SERVICE_PRINCIPAL_CLIENT_SECRET")), (Node("value"), Node(secret))]))
            exec["env"] = Node(variables)
        }
        return exec
    }

    /// kubelogin's arguments after `get-token` as msal's, with `login` in place of theirs, and the client secret
    /// taken out of them (it goes to the exec's environment: a command line is in the process list).
    private static func translate(_ arguments: ArraySlice<String>, name: String, login: String?) throws
        -> (arguments: [String], secret: String?)
    {
        var translated: [String] = []
        var secret: String?
        var mode: String?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let flag = parts[0]
            guard knownFlags.contains(flag) else {
                throw UsageError(
                    "The user \(name) runs kubelogin with \(flag), which msal kube get-token does not take; "
                        + "remove it and convert again.")
            }
            guard let value = parts.count == 2 ? parts[1] : remaining.popFirst() else {
                throw UsageError("The user \(name) runs kubelogin with \(flag) but no value.")
            }
            switch flag {
            case "--client-secret": secret = value
            case "-l", "--login": mode = login ?? value
            default: translated += [flag, value]
            }
        }
        let chosen = try KubeLoginMode.resolve(flag: mode ?? login ?? "devicecode", environment: [:])
        return (["--login", chosen.rawValue] + translated, secret)
    }

    /// `node` without `key` (Yams' subscript leaves a key in place when given `nil`).
    private static func removing(_ key: String, from node: Node) -> Node {
        guard case .mapping(var mapping) = node else { return node }
        mapping[key] = nil
        return .mapping(mapping)
    }

    /// The exec for the legacy `azure` auth provider's settings.
    private static func execForAzureProvider(_ config: Node?, name: String, login: String?) throws -> Node {
        func value(_ key: String) -> String? { config?[key]?.string.flatMap { $0.isEmpty ? nil : $0 } }
        guard let server = value("apiserver-id") else {
            throw UsageError("The user \(name) has the azure auth provider without an apiserver-id.")
        }
        let mode = try KubeLoginMode.resolve(flag: login ?? "devicecode", environment: [:])
        var arguments = ["kube", "get-token", "--login", mode.rawValue, "--server-id", server]
        if let client = value("client-id") { arguments += ["--client-id", client] }
        if let tenant = value("tenant-id") { arguments += ["--tenant-id", tenant] }
        arguments += ["--environment", value("environment") ?? "AzurePublicCloud"]
        return Node([
            (Node("apiVersion"), Node(execAPIVersion)), (Node("command"), Node("msal")),
            (Node("args"), Node(arguments.map { Node($0) })),
        ])
    }
}
