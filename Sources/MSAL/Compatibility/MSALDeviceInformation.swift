import Foundation

/// Whether the device is shared by several users (MSAL's `MSALDeviceMode`).
public enum MSALDeviceMode: Int, Sendable {
    /// One user signs in on the device.
    case `default` = 0
    /// Several users share the device, one at a time (shared-device mode).
    case shared = 1

    init(_ mode: DeviceInformation.Mode) {
        self = mode == .shared ? .shared : .default
    }
}

/// What ``MSALPublicClientApplication/getDeviceInformation(with:completionBlock:)`` reports.
/// On Linux the device mode comes from ``MSALPublicClientApplicationConfig/deviceMode``; there is no
/// broker or SSO extension.
public final class MSALDeviceInformation: Sendable {
    /// Whether the device is shared, from ``MSALPublicClientApplicationConfig/deviceMode``.
    public let deviceMode: MSALDeviceMode
    /// Always false on Linux.
    public var hasAADSSOExtension: Bool { false }

    init(_ information: DeviceInformation) {
        deviceMode = MSALDeviceMode(information.deviceMode)
    }
}
