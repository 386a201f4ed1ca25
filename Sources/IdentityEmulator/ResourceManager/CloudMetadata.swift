import Foundation
import Hummingbird

/// `GET /metadata/endpoints?api-version=2022-09-01`: the cloud's endpoints in the shape Resource Manager serves
/// them and `az cloud register` reads without `--skip-endpoint-discovery`, for a cloud named `IdentityEmulator`
/// whose sign-in (`authentication.loginEndpoint`) and Resource Manager (`resourceManager`) are the emulator's
/// origin, and whose resources are named as in Azure's public cloud: Resource Manager's two application id URIs
/// (`authentication.audiences`, the first one the one Azure CLI asks tokens for), Graph's, Key Vault's suffix.
struct CloudMetadata: Sendable {
    /// The origin the client reached the emulator at.
    let origin: String

    var json: JSONValue {
        .object([
            ("portal", .string("\(origin)/_emulator/")),
            (
                "authentication",
                .object([
                    ("loginEndpoint", .string("\(origin)/")),
                    (
                        "audiences",
                        .array([
                            .string("https://management.core.windows.net/"), .string("https://management.azure.com/"),
                        ])
                    ),
                    ("tenant", .string("common")),
                    ("identityProvider", .string("AAD")),
                ])
            ),
            ("graphAudience", .string("https://graph.windows.net/")),
            ("graph", .string("https://graph.windows.net/")),
            ("name", .string("IdentityEmulator")),
            (
                "suffixes",
                .object([
                    ("acrLoginServer", .string("azurecr.io")),
                    ("keyVaultDns", .string("vault.azure.net")),
                    ("mhsmDns", .string("managedhsm.azure.net")),
                    ("sqlServerHostname", .string("database.windows.net")),
                    ("storage", .string("core.windows.net")),
                ])
            ),
            ("resourceManager", .string("\(origin)/")),
            ("microsoftGraphResourceId", .string("https://graph.microsoft.com/")),
        ])
    }

    var response: Response { HTTPExchange.json(json) }
}
