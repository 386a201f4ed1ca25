/// What an entry of a section must hold to be read as one; an entry without it is set aside as opaque
/// data and written back as read. Declared here once for both readers of an entry: ``StoredEntryScanner``
/// keeps an entry as a span of the file only when it has them, and ``CacheEntryReader`` builds an entry
/// only when it has them, reading them through ``CacheEntryReader/Required``, which answers for no other field.
struct RequiredFields: Sendable {
    typealias Field = CacheEntryReader.Field

    /// Fields that must be present.
    let fields: [Field]
    /// Those of them whose text must also read as a timestamp (``CacheEntryReader/date(from:)``).
    let timestamps: [Field]

    private static let accessToken = RequiredFields(
        fields: [.homeAccountID, .environment, .clientID, .secret, .expiresOn], timestamps: [.expiresOn])
    private static let credential = RequiredFields(
        fields: [.homeAccountID, .environment, .clientID, .secret], timestamps: [])
    private static let account = RequiredFields(fields: [.homeAccountID, .environment], timestamps: [])
    private static let appMetadata = RequiredFields(fields: [.clientID, .environment], timestamps: [])

    /// The rules of a section's entries.
    static func of(_ section: StoredEntryScanner.Section) -> RequiredFields {
        switch section {
        case .accessToken: accessToken
        case .refreshToken, .idToken: credential
        case .account: account
        case .appMetadata: appMetadata
        }
    }

    /// Whether an entry meets them.
    ///
    /// - Parameters:
    ///   - has: whether the entry has a field.
    ///   - text: the text of a field it has.
    func areMet(has: (Field) -> Bool, text: (Field) -> String) -> Bool {
        fields.allSatisfy(has) && timestamps.allSatisfy { CacheEntryReader.date(from: text($0)) != nil }
    }
}
