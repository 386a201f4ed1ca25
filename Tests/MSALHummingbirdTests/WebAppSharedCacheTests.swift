import Foundation
import IdentityEmulator
import MSAL
import MSALPostgres
import TestServers
import Testing
import WebAppSample

/// webapp-sample with its users' tokens in PostgreSQL: a sign-in in a real browser lands in the user's partition row,
/// and signing out clears it.
@Suite("webapp-sample with its token cache in PostgreSQL", .timeLimit(.minutes(5)))
struct WebAppSharedCacheTests {
    typealias IDs = Directory.DemoIDs
    static let jane = TokenCachePartition.user(
        homeAccountID: "7a9c1e3f-5b7d-4f9a-8c2e-4f6a8c0e2b4d.\(IDs.externalTenant)")

    @Test("signed in: the user's partition is in the table; signed out: it is gone")
    func partitionInPostgres() async throws {
        try await PostgresCluster.with { cluster in
            let store = try PostgresTokenCacheStore(url: cluster.socketURL, operationTimeout: .seconds(30))
            do {
                try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
                    var web = try WebAppSite.configuration(emulator)
                    web.client.cache = PartitionedTokenCache(store: store)
                    try await WebAppSampleServer.withRunning(web) { site in
                        try await WebDriver.withHeadlessChromium { browser in
                            try await browser.open(site.appendingPathComponent("profile"))
                            try await browser.signInJane()
                            try await browser.waitFor("#displayName")
                            #expect(try await browser.pageSource.contains("Jane Customer"))
                            let row = try #require(try await store.load(Self.jane))
                            #expect(try Self.refreshTokens(row.data) == 1)

                            try await browser.open(site)
                            try await browser.click("#signout")
                            try await browser.waitFor("#anonymous")  // the click returns before the sign-out's page
                            // Without tokens the partition expires at once: nothing of Jane's is left to load.
                            #expect(try await store.load(Self.jane) == nil)
                        }
                    }
                }
                await store.shutdown()
            } catch {
                await store.shutdown()
                throw error
            }
        }
    }

    static func refreshTokens(_ data: Data) throws -> Int {
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (json["RefreshToken"] as? [String: Any])?.count ?? 0
    }
}
