import Foundation

/// Graph's `/me` as the tutorials show it: the profile's fields, one per line, in Graph's order.
enum ProfileView {
    static let fields = [
        "displayName", "givenName", "surname", "userPrincipalName", "mail", "jobTitle",
        "officeLocation", "mobilePhone", "businessPhones", "preferredLanguage", "id",
    ]

    /// - Parameter profile: Graph's JSON object.
    static func render(_ profile: [String: Any]) -> String {
        TextTable.render(fields.map { [$0, text(profile[$0])] })
    }

    private static func text(_ value: Any?) -> String {
        switch value {
        case let string as String: string
        case let list as [Any]: list.isEmpty ? "—" : list.map { "\($0)" }.joined(separator: ", ")
        case nil, is NSNull: "—"
        case let other?: "\(other)"
        }
    }
}
