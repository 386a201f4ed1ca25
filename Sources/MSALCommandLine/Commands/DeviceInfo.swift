import ArgumentParser
import Foundation
import MSAL

/// `msal device-info`: the tutorials' "Get device info" button.
struct DeviceInfo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-info", abstract: "Show the device mode and single sign-on support.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let json = global.json
        try await global.run { context in
            let information = context.app.deviceInformation()
            let os = ProcessInfo.processInfo.operatingSystemVersionString
            if json {
                try context.printJSON([
                    "device_mode": information.deviceMode.rawValue, "sso_extension": information.hasSSOExtension,
                    "operating_system": os,
                ])
            } else {
                context.console.out(
                    TextTable.render([
                        ["Device mode", information.deviceMode.rawValue],
                        ["SSO extension", information.hasSSOExtension ? "yes" : "none (Linux has no broker)"],
                        ["Operating system", os],
                    ]))
            }
        }
    }
}
