import Foundation

/// An Azure subscription of a tenant, as Azure Resource Manager lists it (`GET /subscriptions`).
public struct AzureSubscription: Codable, Sendable {
    /// The states Resource Manager reports.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// In use.
        case enabled = "Enabled"
        /// Past due or its spending limit reached; still usable.
        case warned = "Warned"
        /// Past due; still usable.
        case pastDue = "PastDue"
        /// Turned off: its resources cannot be used.
        case disabled = "Disabled"
        /// Cancelled.
        case deleted = "Deleted"
    }

    /// The subscription id, a GUID.
    public var id: String
    /// The name shown in `az account list` and the portal.
    public var displayName: String
    /// `Enabled` when absent.
    public var state: State

    /// A subscription with the given id (a GUID), name and state.
    public init(id: String, displayName: String, state: State = .enabled) {
        self.id = id
        self.displayName = displayName
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case id, displayName, state
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        displayName = try c.decode(String.self, forKey: .displayName)
        let state = try c.decodeIfPresent(String.self, forKey: .state) ?? State.enabled.rawValue
        guard let known = State(rawValue: state) else {
            throw DecodingError.dataCorruptedError(
                forKey: .state, in: c,
                debugDescription: "must be one of \(State.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.state = known
    }
}

extension Directory {
    /// Each subscription has a GUID id unique in the directory and a display name.
    func validateSubscriptions() throws {
        var ids = Set<String>()
        for (i, tenant) in tenants.enumerated() {
            for (j, subscription) in tenant.subscriptions.enumerated() {
                let field = "tenants[\(i)].subscriptions[\(j)]"
                guard UUID(uuidString: subscription.id) != nil else {
                    throw DirectoryConfigurationError(field: field + ".id", reason: "must be a GUID")
                }
                guard ids.insert(subscription.id.lowercased()).inserted else {
                    throw DirectoryConfigurationError(field: field + ".id", reason: "duplicate subscription")
                }
                guard !subscription.displayName.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw DirectoryConfigurationError(field: field + ".displayName", reason: "must not be empty")
                }
            }
        }
    }
}
