import ArgumentParser
import AtomicFiles
import Foundation

/// `msal kube convert-kubeconfig`: kubelogin's `convert-kubeconfig`, to msal (``KubeconfigConversion``).
struct KubeConvertKubeconfig: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert-kubeconfig",
        abstract: "Rewrite a kubeconfig's kubelogin or azure auth-provider users to run msal kube get-token.",
        discussion: """
            The kubeconfig is --kubeconfig, else each file KUBECONFIG lists, else ~/.kube/config (as kubectl \
            reads it). Users signed in by kubelogin get-token keep their arguments (a --client-secret moves to the \
            exec's environment, AAD_SERVICE_PRINCIPAL_CLIENT_SECRET); users of the legacy azure auth provider \
            get an exec from its apiserver-id, client-id, tenant-id and environment. Other users, clusters and \
            contexts are left as they were. The file is replaced atomically, readable by its owner only, and \
            written as YAML without the comments it had.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The kubeconfig file to convert (env KUBECONFIG).", valueName: "file"))
    var kubeconfig: String?

    @Option(
        name: [.customShort("l"), .long],
        help: ArgumentHelp(
            "The login mode for every converted user: devicecode, interactive, spn, msi or workloadidentity.",
            valueName: "mode"))
    var login: String?

    func validate() throws {
        if let login { _ = try KubeLoginMode.resolve(flag: login, environment: [:]) }
    }

    func run() async throws {
        let (explicit, login) = (kubeconfig, login)
        try await global.values.reportingFailure { console in
            for path in Self.files(explicit: explicit, environment: ProcessInfo.processInfo.environment) {
                guard let data = try NamedFile.contents(atPath: path, name: "The kubeconfig \(path)") else {
                    throw UsageError("The kubeconfig \(path) does not exist.")
                }
                let result = try KubeconfigConversion.convert(String(decoding: data, as: UTF8.self), login: login)
                guard !result.converted.isEmpty else {
                    console.err("msal: \(path): no kubelogin or azure auth-provider user to convert.")
                    continue
                }
                try AtomicFile.write(Data(result.text.utf8), to: path)
                console.err("msal: \(path): converted \(result.converted.joined(separator: ", ")).")
            }
        }
    }

    /// The kubeconfig files, as kubectl finds them: `explicit`, else `KUBECONFIG`'s existing files, else
    /// `~/.kube/config`.
    static func files(explicit: String?, environment: [String: String]) -> [String] {
        if let explicit { return [explicit] }
        if let list = environment["KUBECONFIG"], !list.isEmpty {
            return list.split(separator: ":").map(String.init).filter { FileManager.default.fileExists(atPath: $0) }
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return [URL(fileURLWithPath: home).appendingPathComponent(".kube/config").path]
    }
}
