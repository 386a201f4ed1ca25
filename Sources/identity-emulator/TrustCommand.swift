import ArgumentParser
import Foundation
import IdentityEmulator

/// `identity-emulator trust [--install]`: how to trust the local CA `--tls` serves with, and adding it to the
/// system's store.
struct TrustCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trust",
        abstract: "Print how to trust the emulator's local CA (curl, Python, Node, Go, Java, .NET, Swift).",
        discussion: """
            The CA is the one `identity-emulator --tls` serves with, kept in --tls-directory across restarts; it is \
            made there now when it is not yet. With --install (as root), it is added to the system's store with \
            Debian's update-ca-certificates, for every program on the machine. It only vouches for localhost, \
            loopback addresses and the --public-url host.
            """)

    @Option(help: "The folder the emulator keeps its CA in (as given to identity-emulator --tls-directory).")
    var tlsDirectory = CommandInput.defaultTLSFolder

    @Option(help: "The --public-url the emulator is started with, when it has one (the CA names its host).")
    var publicURL: String?

    @Flag(help: "Add the CA to the system's store (/usr/local/share/ca-certificates, update-ca-certificates).")
    var install = false

    func run() throws {
        let origin = try CommandInput.publicOrigin(publicURL)
        let trust: CATrust
        let isNew: Bool
        do {
            (trust, isNew) = try CATrust.kept(in: URL(fileURLWithPath: tlsDirectory), publicURL: origin)
        } catch let error as IdentityEmulator.StartError {
            FileHandle.standardError.write(Data("identity-emulator: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if isNew { print("A new local CA was made: \(trust.caFile.path)\n") }
        guard install else {
            print(trust.instructions.joined(separator: "\n"))
            return
        }
        do {
            let report = try trust.install()
            print(report.trimmingCharacters(in: .whitespacesAndNewlines))
            print("The emulator's CA is in the system's store: programs that verify with it trust the emulator.")
        } catch let error as CATrust.InstallError {
            FileHandle.standardError.write(Data("identity-emulator: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }
}
