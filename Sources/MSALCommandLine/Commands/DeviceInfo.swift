import ArgumentParser
import Foundation
import MSAL

/// `msal device-info`: the tutorials' "Get device info" button, and the managed identity source the environment names.
struct DeviceInfo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-info",
        abstract: "Show the device mode, single sign-on support and the managed identity source.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let json = global.json
        try await global.values.run { context in
            let information = context.app.deviceInformation()
            let os = ProcessInfo.processInfo.operatingSystemVersionString
            let managedIdentity = Result { try ManagedIdentityEndpoint() }
            let source: String
            switch managedIdentity {
            case .success(let endpoint): source = endpoint.description
            case .failure(let error): source = "none usable: \(ExitCodes.line(for: error))"
            }
            if json {
                try context.printJSON([
                    "device_mode": information.deviceMode.rawValue, "sso_extension": information.hasSSOExtension,
                    "operating_system": os,
                    "managed_identity_source": (try? managedIdentity.get().source.rawValue) ?? "none",
                    "managed_identity_endpoint": (try? managedIdentity.get().url.absoluteString) ?? "",
                ])
            } else {
                context.console.out(
                    TextTable.render([
                        ["Device mode", information.deviceMode.rawValue],
                        ["SSO extension", information.hasSSOExtension ? "yes" : "none (Linux has no broker)"],
                        ["Operating system", os],
                        ["Managed identity", source],
                    ]))
            }
        }
    }
}
