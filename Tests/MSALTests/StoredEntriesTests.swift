import Foundation
import Testing

@testable import MSAL

@Suite("Cache entries kept as the file's bytes until used or changed")
struct StoredEntriesTests {
    static let tenant = "00000000-0000-0000-0000-0000000000a1"
    static let environments: Set<String> = ["login.microsoftonline.com"]

    static func cache(_ uids: [String], renewing renewed: String? = nil) async throws -> TokenCache {
        let cache = TokenCache()
        for uid in uids { try await cache.store(CacheFolder.artefacts(uid), replacingRefreshToken: nil) }
        if let renewed {
            try await cache.store(CacheArtefacts(accessToken: renewedToken(renewed)), replacingRefreshToken: nil)
        }
        return cache
    }

    static func renewedToken(_ uid: String) -> AccessTokenEntry? {
        var token = CacheFolder.artefacts(uid).accessToken
        token?.secret = "at-\(uid)-renewed"
        return token
    }

    @Test(
        "a loaded file is written back byte for byte; a lookup changes nothing; a change rewrites only its own entries")
    func writtenBackAsRead() async throws {
        let file = try await Self.cache(["a", "b", "c"]).serialize()
        let loaded = TokenCache()
        try await loaded.deserialize(file)
        #expect(try await loaded.serialize() == file)

        let token = try await loaded.accessToken(
            homeAccountID: "b.\(Self.tenant)", clientID: "hammer-client", realm: Self.tenant,
            environments: Self.environments, scopes: ["user.read"])
        #expect(token?.secret == "at-b")
        #expect(try await loaded.accounts().map(\.localAccountID).sorted() == ["a", "b", "c"])
        #expect(try await loaded.serialize() == file)

        try await loaded.store(CacheArtefacts(accessToken: Self.renewedToken("b")), replacingRefreshToken: nil)
        #expect(try await loaded.serialize() == Self.cache(["a", "b", "c"], renewing: "b").serialize())
    }

    @Test(
        "another SDK's key is kept until its entry changes; entries the scan cannot take (escapes, unknown fields) are decoded at once"
    )
    func otherShapes() async throws {
        let home = "a.\(Self.tenant)"
        let text = """
            {"AccessToken": {"\(home)-LOGIN.MICROSOFTONLINE.COM-AccessToken-hammer-client-\(Self.tenant)-User.Read": {
                "credential_type": "AccessToken", "secret": "at-a", "home_account_id": "\(home)", "environment": "login.microsoftonline.com",
                "client_id": "hammer-client", "target": "User.Read", "realm": "\(Self.tenant)", "cached_at": "1795000000",
                "expires_on": "1795003600"}},
             "RefreshToken": {"rt": {"credential_type": "RefreshToken", "secret": "r\\u0074-a", "home_account_id": "\(home)",
                "environment": "login.microsoftonline.com", "client_id": "hammer-client"}},
             "IdToken": {"id": {"credential_type": "IdToken", "secret": "id-a", "home_account_id": "\(home)",
                "environment": "login.microsoftonline.com", "realm": "\(Self.tenant)", "client_id": "hammer-client", "key_id": "k1"}}}
            """
        let loaded = TokenCache()
        try await loaded.deserialize(Data(text.utf8))
        let refreshTokens = try await loaded.refreshTokens(
            homeAccountID: home, environments: Self.environments, clientID: "hammer-client")
        #expect(refreshTokens.map(\.secret) == ["rt-a"])
        let idToken = try await loaded.idToken(
            homeAccountID: home, clientID: "hammer-client", realm: Self.tenant, environments: Self.environments)
        #expect(idToken?.extra["key_id"] == .string("k1"))

        func sections() async throws -> [String: [String: [String: Any]]] {
            try #require(
                JSONSerialization.jsonObject(with: try await loaded.serialize()) as? [String: [String: [String: Any]]])
        }
        let before = try await sections()
        #expect(before["AccessToken"]?.keys.first?.contains("AccessToken-hammer-client") == true, "kept as read")
        #expect(before["IdToken"]?.values.first?["key_id"] as? String == "k1")

        try await loaded.store(CacheArtefacts(accessToken: Self.renewedToken("a")), replacingRefreshToken: nil)
        let after = try await sections()
        #expect(
            after["AccessToken"].map { Array($0.keys) } == [
                "\(home)-login.microsoftonline.com-accesstoken-hammer-client-\(Self.tenant)-user.read"
            ])
        #expect(after["AccessToken"]?.values.first?["secret"] as? String == "at-a-renewed")
        #expect(after["RefreshToken"]?.values.first?["secret"] as? String == "rt-a")
    }

    @Test(
        "access and ID tokens are filed by account, client and tenant whatever the order or letter case of the file's entries"
    )
    func tokensInAnyOrder() async throws {
        func entry(_ kind: String, _ home: String, _ realm: String) -> String {
            let lifetime =
                kind == "AccessToken"
                ? #", "target": "User.Read", "cached_at": "1795000000", "expires_on": "1795003600""# : ""
            return
                #""\#(kind)-\#(home)-\#(realm)": {"credential_type": "\#(kind)", "secret": "\#(kind)-\#(home.lowercased())", "#
                + #""home_account_id": "\#(home)", "environment": "login.microsoftonline.com", "client_id": "hammer-client", "realm": "\#(realm)"\#(lifetime)}"#
        }
        let (a, b, tenant) = ("a.\(Self.tenant)", "b.\(Self.tenant)", Self.tenant)
        // Index by index: a's access token meets b's ID token, b's meets a's ID token in capitals, and c's pair
        // differs only in letter case.
        let text = """
            {"AccessToken": {\(entry("AccessToken", a, tenant)), \(entry("AccessToken", b, tenant)), \(entry("AccessToken", "c.\(tenant)", tenant))},
             "IdToken": {\(entry("IdToken", b, tenant)), \(entry("IdToken", a.uppercased(), tenant.uppercased())), \(entry("IdToken", "C.\(tenant)", tenant))}}
            """
        let loaded = TokenCache()
        try await loaded.deserialize(Data(text.utf8))
        for home in [a, b, "c.\(tenant)"] {
            let accessToken = try await loaded.accessToken(
                homeAccountID: home, clientID: "hammer-client", realm: tenant,
                environments: Self.environments, scopes: ["user.read"])
            let idToken = try await loaded.idToken(
                homeAccountID: home, clientID: "hammer-client", realm: tenant, environments: Self.environments)
            #expect(accessToken?.secret == "AccessToken-\(home)")
            #expect(idToken?.secret == "IdToken-\(home)")
        }
    }

    /// What a read found, comparable: each section's stored spans and decoded entries' keys, and what was set aside.
    static func summary(_ contents: UnifiedCacheFormat.Contents) -> [String] {
        let stored = contents.stored
        return [stored.accessTokens, stored.refreshTokens, stored.idTokens, stored.accounts, stored.appMetadata].map {
            found in
            found.map { "\($0.span.key) \($0.span.value) \($0.homeAccountID) \($0.clientID) \($0.realm)" }.joined(
                separator: ";")
        } + contents.accessTokens.map(UnifiedCacheFormat.key) + contents.idTokens.map(UnifiedCacheFormat.key)
            + contents.refreshTokens.map(UnifiedCacheFormat.key) + contents.accounts.map(UnifiedCacheFormat.key)
            + contents.opaqueEntries.keys.sorted() + contents.unknownSections.keys.sorted()
    }

    @Test(
        "a large indented file is read in two halves at once, as it reads in one piece; a cut the head does not confirm is not used"
    )
    func halves() async throws {
        let cache = TokenCache()
        for index in 0..<1100 {
            var artefacts = CacheFolder.artefacts("u\(index)")
            artefacts.accessToken?.secret = String(repeating: "a", count: 2000) + "\(index)"
            try await cache.store(artefacts, replacingRefreshToken: nil)
        }
        let file = try await cache.serialize()
        try file.withUnsafeBytes { bytes in
            let split = try #require(CacheFileReading.Split(bytes), "a file over 1 MB, indented")
            let whole = try CacheFileReading.whole(bytes)
            var head = try #require(try CacheFileReading.head(bytes, stoppingAt: split), "the head stops at the cut")
            head.append(try CacheFileReading.tail(bytes, from: split))
            #expect(Self.summary(head) == Self.summary(whole))
            #expect(whole.stored.accessTokens.count == 1100 && whole.stored.accounts.count == 1100)
        }
        #expect(
            Self.summary(try UnifiedCacheFormat.read(file))
                == Self.summary(try file.withUnsafeBytes(CacheFileReading.whole)))
        let loaded = TokenCache()
        try await loaded.deserialize(file)  // large enough for the index's tables to be built on two threads
        #expect(try await loaded.accounts().count == 1100)
        let refreshTokens = try await loaded.refreshTokens(
            homeAccountID: "u7.\(Self.tenant)", environments: Self.environments, clientID: "hammer-client")
        #expect(refreshTokens.map(\.secret) == ["rt-u7"])

        // Every entry now claims to be app metadata, so the cut's guessed section is wrong wherever it falls:
        // the head stops in the real section, and the cut is not used.
        let claim = ",\n            \"credential_type\": \"AppMetadata\"\n        }"
        let misleading = Data(
            String(decoding: file, as: UTF8.self).replacingOccurrences(of: "\n        }", with: claim).utf8)
        try misleading.withUnsafeBytes { bytes in
            let wrong = try #require(CacheFileReading.Split(bytes))
            #expect(wrong.section == "AppMetadata")
            #expect(try CacheFileReading.head(bytes, stoppingAt: wrong) == nil)
        }
        #expect(
            Self.summary(try UnifiedCacheFormat.read(misleading))
                == Self.summary(try misleading.withUnsafeBytes(CacheFileReading.whole)))
    }

    @Test(
        "two load steps run at once give both results, and the thread never keeps the step it ran (found by msal-bench: a crash)"
    )
    func concurrentSteps() {
        for index in 0..<500 {
            let (first, second) = concurrently({ index * 2 }, { "\(index)" })
            #expect(first == index * 2 && second == "\(index)")
        }
        #expect(concurrently(parallel: false, { 1 }, { 2 }) == (1, 2))
    }
}
