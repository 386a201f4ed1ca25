import Foundation
import MSAL

/// client-go's exec credential protocol (`client.authentication.k8s.io`): the request kubectl puts in
/// `KUBERNETES_EXEC_INFO` and the `ExecCredential` the plugin answers on standard output.
struct ExecCredential: Sendable, Equatable {
    /// The API versions kubectl speaks, oldest first; the answer's is the request's.
    static let apiVersions = [
        "client.authentication.k8s.io/v1alpha1", "client.authentication.k8s.io/v1beta1",
        "client.authentication.k8s.io/v1",
    ]
    /// What kubelogin answers when kubectl says nothing (kubectl before 1.11, a plugin run by hand).
    static let defaultAPIVersion = "client.authentication.k8s.io/v1beta1"

    /// The request's API version, answered in kind.
    let apiVersion: String
    /// Whether the user can answer a prompt (`spec.interactive`): kubectl's standard input is a terminal, or the
    /// kubeconfig's `interactiveMode` is `Always`. When kubectl says nothing (before 1.22 its v1beta1 request has no
    /// `interactive`, and a plugin run by hand has no request), whether the plugin's standard input is a terminal:
    /// kubectl hands its own on only when it is one.
    let interactive: Bool

    /// The request in `KUBERNETES_EXEC_INFO`; the default version when unset.
    ///
    /// - Parameter inputIsTerminal: whether standard input is a terminal, for a request that does not say whether
    ///   the user can be asked.
    /// - Throws: ``UsageError`` for a value that is not an `ExecCredential` of a version kubectl speaks.
    init(environment: [String: String], inputIsTerminal: Bool = isatty(STDIN_FILENO) == 1) throws {
        guard let text = environment["KUBERNETES_EXEC_INFO"], !text.isEmpty else {
            apiVersion = Self.defaultAPIVersion
            interactive = inputIsTerminal
            return
        }
        // Read with the library's JSON reader: `JSONSerialization` and the casts out of its `Any` asked the runtime
        // for a dozen conformances, a good part of every `msal kube get-token`.
        guard case .object(let object)? = try? CacheValue(json: text),
            case .string(let version)? = object["apiVersion"]
        else {
            throw UsageError(
                "KUBERNETES_EXEC_INFO is not an ExecCredential (kubectl sets it; unset it to run by hand).")
        }
        guard Self.apiVersions.contains(version) else {
            throw UsageError(
                "KUBERNETES_EXEC_INFO asks for \(version); msal answers \(Self.apiVersions.joined(separator: ", ")).")
        }
        apiVersion = version
        guard case .object(let spec)? = object["spec"], case .bool(let answers)? = spec["interactive"] else {
            interactive = inputIsTerminal
            return
        }
        interactive = answers
    }

    init(apiVersion: String, interactive: Bool) {
        self.apiVersion = apiVersion
        self.interactive = interactive
    }

    /// The answer: the token and when it expires (RFC 3339, UTC), so kubectl runs the plugin again only then.
    func answer(token: String, expiresOn: Date) -> [String: Any] {
        [
            "kind": "ExecCredential", "apiVersion": apiVersion,
            "spec": ["interactive": interactive],
            "status": ["token": token, "expirationTimestamp": Self.timestamp(expiresOn)],
        ]
    }

    /// `2026-11-26T17:00:00Z`: RFC 3339 in UTC, whole seconds, as Kubernetes writes times.
    /// Written from `gmtime_r`: `Date.ISO8601FormatStyle` sets up a formatter cache on first use, a good part of a
    /// warm `msal kube get-token`.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var utc = tm()
        gmtime_r(&seconds, &utc)
        func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(utc.tm_year + 1900)-\(twoDigits(utc.tm_mon + 1))-\(twoDigits(utc.tm_mday))T"
            + "\(twoDigits(utc.tm_hour)):\(twoDigits(utc.tm_min)):\(twoDigits(utc.tm_sec))Z"
    }
}
