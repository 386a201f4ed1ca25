import ArgumentParser
import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import MSAL

/// Test support for the many-processes cache test: one process doing a mix of interactive sign-ins
/// (through the emulator's pages, scripted), silent calls answered from the cache and forced
/// refreshes, all through one shared cache file. After every operation it checks that its own
/// account is still in the file, and prints `op N` on standard error.
struct CacheStress: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache-stress",
        abstract: "Signs in, refreshes and reads tokens through a shared cache file (for the concurrency test).")

    @Option(help: "The shared cache file.") var cache: String
    @Option(help: "The authority URL (an emulator on loopback).") var authority: String
    @Option(help: "The app's client ID.") var client: String
    @Option(help: "Who signs in.") var username: String
    @Option(help: "Their password.") var password: String
    @Option(help: "How many operations to run.") var operations = 250

    func run() async throws {
        // The scripted user follows redirects itself, to stop at the app's loopback address.
        let http = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(redirectConfiguration: .disallow))
        do {
            try await stress(http)
            try await http.shutdown()
        } catch {
            try? await http.shutdown()
            FileHandle.standardError.write(Data("cache-stress: \(error)\n".utf8))
            throw ExitCode(1)
        }
    }

    private func stress(_ http: HTTPClient) async throws {
        var configuration = try PublicClientApplicationConfiguration(clientID: client, authority: Authority(authority))
        configuration.cache = TokenCache(
            persistence: FileTokenCachePersistence(url: URL(fileURLWithPath: cache), lockTimeout: .seconds(60)))
        configuration.browser = AutomatedUser(
            http: http, choices: Array(repeating: .signIn(username: username, password: password), count: operations))
        let app = try PublicClientApplication(configuration: configuration)
        var counts = (signIns: 0, refreshes: 0, silent: 0)
        var account: Account?
        for index in 0..<operations {
            switch (account, index % 10) {
            case (nil, _), (_, 0):
                account = try await app.acquireTokenInteractively(
                    InteractiveParameters(scopes: ["User.Read"], prompt: .login)
                ).account
                counts.signIns += 1
            case (let account?, 1...3):
                _ = try await app.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: account, forceRefresh: true))
                counts.refreshes += 1
            case (let account?, _):
                _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: account))
                counts.silent += 1
            }
            guard try await app.accounts().contains(where: { $0.identifier == account?.identifier }) else {
                throw ValidationError("after operation \(index) the cache file no longer holds this process's account")
            }
            FileHandle.standardError.write(Data("op \(index)\n".utf8))
        }
        print(#"{"signIns":\#(counts.signIns),"refreshes":\#(counts.refreshes),"silent":\#(counts.silent)}"#)
    }
}
