import Foundation

/// Whether the device is shared by several users (MSAL's `MSALDeviceMode`).
public enum MSALDeviceMode: Int, Sendable {
    case `default` = 0
    case shared = 1

    init(_ mode: DeviceInformation.Mode) {
        self = mode == .shared ? .shared : .default
    }
}

/// What ``MSALPublicClientApplication/getDeviceInformation(with:completionBlock:)`` reports.
/// On Linux the device mode comes from ``MSALPublicClientApplicationConfig/deviceMode``; there is no
/// broker or SSO extension.
public final class MSALDeviceInformation: Sendable {
    public let deviceMode: MSALDeviceMode
    /// Always false on Linux.
    public var hasAADSSOExtension: Bool { false }

    init(_ information: DeviceInformation) {
        deviceMode = MSALDeviceMode(information.deviceMode)
    }
}
