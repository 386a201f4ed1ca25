import Foundation
import IdentityEmulator
import Testing

/// Microsoft's first-party applications in every tenant, v1.0 tokens for Microsoft's APIs, and the minimal Resource
/// Manager (`/subscriptions`, `/tenants`, `/metadata/endpoints`) Azure CLI needs.
@Suite("Azure Resource Manager and Microsoft's first-party applications")
struct ResourceManagerTests {
    static let azureCLI = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
    static let azurePowerShell = "1950a258-227b-4e31-a9cf-717495945fc2"
    static let tailspin = "11111111-2222-4333-8444-555555555555"

    /// A directory with neither Azure's applications nor subscriptions of its own but one.
    static let tailspinDirectory = """
        {"tenants":[{"id":"\(tailspin)","domain":"tailspin.onmicrosoft.com","displayName":"Tailspin","kind":"workforce",
                     "subscriptions":[{"id":"51111111-2222-4333-8444-555555555555","displayName":"Tailspin Dev","state":"Warned"}]}],
         "users":[{"id":"21111111-2222-4333-8444-555555555555","tenant":"\(tailspin)","userPrincipalName":"ann@tailspin.onmicrosoft.com","password":"pw-ann-1","displayName":"Ann"}],
         "applications":[]}
        """

    private static func userToken(
        _ emulator: TestEmulator, client: String = azureCLI, scope: String,
        user: String = "MeganB@contoso.onmicrosoft.com",
        password: String = "Megan-Demo-Pass1"
    ) async throws -> (HTTPResult, [String: any Sendable]) {
        let result = try await emulator.passwordGrant(user: user, password: password, scope: scope, client: client)
        #expect(result.status == 200, "\(result.body)")
        let token = try #require(try result.string("access_token"))
        return (result, try JWTInspection.claims(token))
    }

    @Test(
        "Azure CLI and Azure PowerShell sign users in to ARM in a directory that declares neither; ARM's v1 token names it as asked",
        arguments: [
            (azureCLI, "https://management.core.windows.net//.default", "https://management.core.windows.net/"),
            (azurePowerShell, "https://management.azure.com/.default", "https://management.azure.com"),
            (azureCLI, "https://management.azure.com//user_impersonation", "https://management.azure.com/"),
        ])
    func firstPartyClientsInEveryTenant(client: String, scope: String, audience: String) async throws {
        let directory = try Directory.decode(Data(Self.tailspinDirectory.utf8))
        let configure: (inout EmulatorConfiguration) -> Void = { $0.directory = directory }
        try await TestEmulator.with(configure) { emulator in
            let (result, claims) = try await Self.userToken(
                emulator, client: client, scope: scope + " openid offline_access", user: "ann@tailspin.onmicrosoft.com",
                password: "pw-ann-1")
            #expect(claims["aud"] as? String == audience)
            #expect(claims["iss"] as? String == "https://sts.windows.net/\(Self.tailspin)/")
            #expect(claims["ver"] as? String == "1.0")
            #expect(claims["appid"] as? String == client)
            #expect(claims["scp"] as? String == "user_impersonation")
            #expect(try result.string("foci") == "1")
        }
    }

    @Test(
        "Key Vault and Graph tokens are v1.0 with aud as the client named the resource; a v2 API's aud is its client id"
    )
    func v1Shapes() async throws {
        try await TestEmulator.with { emulator in
            let (_, vault) = try await Self.userToken(emulator, scope: "https://vault.azure.net/user_impersonation")
            #expect(vault["aud"] as? String == "https://vault.azure.net")
            #expect(vault["ver"] as? String == "1.0")
            let (_, graph) = try await Self.userToken(
                emulator, client: emulator.ids.publicClient, scope: "https://graph.microsoft.com/User.Read")
            #expect(graph["aud"] as? String == "https://graph.microsoft.com")
            let (_, short) = try await Self.userToken(emulator, client: emulator.ids.publicClient, scope: "User.Read")
            #expect(short["aud"] as? String == emulator.ids.graph)
            let app = try await emulator.token(
                emulator.ids.contosoTenant,
                [
                    ("grant_type", "client_credentials"), ("client_id", emulator.ids.confidentialClient),
                    ("client_secret", emulator.ids.confidentialSecret),
                    ("scope", "https://management.core.windows.net//.default"),
                ])
            let appClaims = try JWTInspection.claims(try #require(try app.string("access_token")))
            #expect(appClaims["aud"] as? String == "https://management.core.windows.net/")
            #expect(appClaims["iss"] as? String == "https://sts.windows.net/\(emulator.ids.contosoTenant)/")
            #expect(appClaims["ver"] as? String == "1.0")
        }
    }

    @Test("GET /subscriptions, /subscriptions/{id} and /tenants answer an ARM token from the directory's subscriptions")
    func listsSubscriptionsAndTenants() async throws {
        try await TestEmulator.with { emulator in
            let (result, _) = try await Self.userToken(emulator, scope: "https://management.core.windows.net//.default")
            let bearer = [("Authorization", "Bearer \(try #require(try result.string("access_token")))")]
            let list = try await emulator.get("/subscriptions?api-version=2022-12-01", headers: bearer)
            #expect(list.status == 200, "\(list.body)")
            let value = try #require(try list.json["value"] as? [any Sendable]).compactMap {
                $0 as? [String: any Sendable]
            }
            #expect(
                value.map { $0["id"] as? String } == [
                    "/subscriptions/\(emulator.ids.subscription)",
                    "/subscriptions/\(emulator.ids.developmentSubscription)",
                ])
            #expect(value.first?["tenantId"] as? String == emulator.ids.contosoTenant)
            #expect(value.first?["state"] as? String == "Enabled")
            let one = try await emulator.get(
                "/subscriptions/\(emulator.ids.subscription)?api-version=2022-12-01", headers: bearer)
            #expect(try one.string("displayName") == "Contoso Production")
            let other = try await emulator.get(
                "/subscriptions/\(emulator.ids.fabrikamSubscription)?api-version=2022-12-01", headers: bearer)
            #expect(other.status == 401)
            #expect(other.body.contains("InvalidAuthenticationTokenTenant"))
            let missing = try await emulator.get(
                "/subscriptions/00000000-0000-4000-8000-000000000000?api-version=2022-12-01", headers: bearer)
            #expect(missing.status == 404)
            #expect(missing.body.contains("SubscriptionNotFound"))
            let tenants = try await emulator.get("/tenants?api-version=2022-12-01", headers: bearer)
            let ids = try #require(try tenants.json["value"] as? [any Sendable]).compactMap {
                ($0 as? [String: any Sendable])?["tenantId"] as? String
            }
            #expect(ids == [emulator.ids.contosoTenant, emulator.ids.fabrikamTenant])
            let noVersion = try await emulator.get("/subscriptions", headers: bearer)
            #expect(noVersion.status == 400)
            #expect(noVersion.body.contains("MissingApiVersionParameter"))
        }
    }

    @Test(
        "Resource Manager refuses a missing, forged, expired or other-audience token with its error JSON and a challenge"
    )
    func refusesInvalidTokens() async throws {
        try await TestEmulator.with { emulator in
            let (arm, _) = try await Self.userToken(emulator, scope: "https://management.azure.com/.default")
            let armToken = try #require(try arm.string("access_token"))
            let (graph, _) = try await Self.userToken(emulator, client: emulator.ids.publicClient, scope: "User.Read")
            let graphToken = try #require(try graph.string("access_token"))
            let forged = String(armToken.dropLast(4)) + (armToken.hasSuffix("AAAA") ? "BBBB" : "AAAA")
            let cases: [(String?, String)] = [
                (nil, "AuthenticationFailed"), (forged, "InvalidAuthenticationToken"),
                (graphToken, "InvalidAuthenticationTokenAudience"),
            ]
            for (token, code) in cases {
                let result = try await emulator.get(
                    "/subscriptions?api-version=2022-12-01",
                    headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
                #expect(result.status == 401)
                let error = try #require(try result.json["error"] as? [String: any Sendable])
                #expect(error["code"] as? String == code, "\(result.body)")
                #expect(error["message"] is String)
                #expect(result.header("WWW-Authenticate")?.hasPrefix("Bearer authorization_uri=") == true)
            }
            try await emulator.setClockOffset(30 * 3600)
            let expired = try await emulator.get(
                "/subscriptions?api-version=2022-12-01", headers: [("Authorization", "Bearer \(armToken)")])
            #expect(expired.status == 401)
            #expect(expired.body.contains("ExpiredAuthenticationToken"))
        }
    }

    @Test("GET /metadata/endpoints names the emulator as the cloud's sign-in and Resource Manager, without a token")
    func cloudMetadata() async throws {
        try await TestEmulator.with { emulator in
            for path in ["/metadata/endpoints?api-version=2022-09-01", "//metadata/endpoints?api-version=2022-09-01"] {
                let result = try await emulator.get(path)
                #expect(result.status == 200)
                let json = try result.json
                let authentication = try #require(json["authentication"] as? [String: any Sendable])
                #expect(authentication["loginEndpoint"] as? String == emulator.base + "/")
                #expect(
                    authentication["audiences"] as? [String] == [
                        "https://management.core.windows.net/", "https://management.azure.com/",
                    ])
                #expect(json["resourceManager"] as? String == emulator.base + "/")
                #expect(json["name"] as? String == "IdentityEmulator")
                #expect((json["suffixes"] as? [String: any Sendable])?["keyVaultDns"] as? String == "vault.azure.net")
            }
        }
    }

    @Test(
        "a subscription with a bad id, a duplicate id or an unknown state is refused, naming the field",
        arguments: [
            (#"{"id":"nope","displayName":"A"}"#, "tenants[0].subscriptions[0].id", "must be a GUID"),
            (
                #"{"id":"51111111-2222-4333-8444-555555555555","displayName":" "}"#,
                "tenants[0].subscriptions[0].displayName", "must not be empty"
            ),
            (
                #"{"id":"51111111-2222-4333-8444-555555555555","displayName":"A","state":"Sleeping"}"#,
                "tenants[0].subscriptions[0].state", "must be one of Enabled"
            ),
            (
                #"{"id":"51111111-2222-4333-8444-555555555555","displayName":"A"},{"id":"51111111-2222-4333-8444-555555555555","displayName":"B"}"#,
                "tenants[0].subscriptions[1].id", "duplicate subscription"
            ),
        ])
    func badSubscriptions(subscriptions: String, field: String, reason: String) throws {
        let json = """
            {"tenants":[{"id":"\(Self.tailspin)","domain":"a.b","displayName":"A","kind":"workforce","subscriptions":[\(subscriptions)]}],
             "users":[],"applications":[]}
            """
        let error = try #require(throws: DirectoryConfigurationError.self) { try Directory.decode(Data(json.utf8)) }
        #expect(error.field == field)
        #expect(error.reason.contains(reason), "\(error)")
    }
}
