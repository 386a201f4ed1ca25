import ArgumentParser
import Foundation
import MSAL
import MSALPostgres

/// Test support for the fleet tests: one process of a fleet of confidential clients sharing a token
/// cache in PostgreSQL. The client secret comes from `FLEET_CLIENT_SECRET`, never the command line.
/// Prints one JSON line: how many calls it made and how many of them reached the identity platform.
@main
struct FleetWorker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet-worker",
        abstract: "Gets app tokens through a token cache shared in PostgreSQL (for the fleet tests).")

    @Option(help: "The tenant's authority URL (an emulator on loopback).") var authority: String
    @Option(help: "The app's client ID.") var client: String
    @Option(help: "The PostgreSQL URL of the shared cache.") var store: String
    @Option(parsing: .upToNextOption, help: "The resources' scopes, used in turn.") var scopes: [String]
    @Option(help: "Sequential operations, each a forced refresh or a lookup.") var operations = 0
    @Option(help: "Concurrent callers asking once for the first scope.") var callers = 0
    @Option(help: "This process's number, to vary the order of scopes.") var index = 0

    func run() async throws {
        guard let secret = ProcessInfo.processInfo.environment["FLEET_CLIENT_SECRET"] else {
            throw ValidationError("FLEET_CLIENT_SECRET is not set.")
        }
        // Roomy bounds: the tests run several workers on a machine busy with the rest of the suite, and what they
        // check (no lost write, one refresh) must not depend on how fast it is.
        let postgres = try PostgresTokenCacheStore(url: PostgresConnectionURL(store), operationTimeout: .seconds(30))
        var configuration = try ConfidentialClientApplicationConfiguration(
            clientID: client, credential: .secret(secret), authority: Authority(authority))
        configuration.cache = PartitionedTokenCache(store: postgres, refreshLockWait: .seconds(60))
        let app = try ConfidentialClientApplication(configuration: configuration)
        var calls = 0
        var network = 0
        for operation in 0..<operations {
            let scope = scopes[(operation + index) % scopes.count]
            let result = try await app.acquireTokenForClient(
                ClientCredentialParameters(scopes: [scope], forceRefresh: operation % 4 == 0))
            calls += 1
            if result.source == .identityProvider { network += 1 }
        }
        let first = scopes[0]
        let sources = try await withThrowingTaskGroup(of: AuthenticationResult.Source.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    try await app.acquireTokenForClient(ClientCredentialParameters(scopes: [first])).source
                }
            }
            return try await group.reduce(into: [AuthenticationResult.Source]()) { $0.append($1) }
        }
        calls += sources.count
        network += sources.filter { $0 == .identityProvider }.count
        await postgres.shutdown()
        FileHandle.standardOutput.write(Data(#"{"calls":\#(calls),"network":\#(network)}"#.utf8 + [0x0A]))
    }
}
