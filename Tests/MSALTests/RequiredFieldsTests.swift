import Foundation
import Testing

@testable import MSAL

@Suite("Required fields: the cache scan and the decoder keep the same entries")
struct RequiredFieldsTests {
    typealias Field = CacheEntryReader.Field

    static let home = "a.00000000-0000-0000-0000-0000000000a1"
    static let tenant = "00000000-0000-0000-0000-0000000000a1"

    /// An entry of `section` with every field it uses, as MSAL Python writes it.
    static func complete(_ section: StoredEntryScanner.Section) -> [(Field, String)] {
        let credential: [(Field, String)] = [
            (.homeAccountID, home), (.environment, "login.microsoftonline.com"), (.clientID, "hammer-client"),
        ]
        switch section {
        case .accessToken:
            return credential + [
                (.credentialType, "AccessToken"), (.secret, "at"), (.realm, tenant), (.target, "User.Read"),
                (.cachedAt, "1795000000"), (.expiresOn, "1795003600"), (.extendedExpiresOn, "1795003600"),
            ]
        case .refreshToken:
            return credential + [(.credentialType, "RefreshToken"), (.secret, "rt"), (.target, "User.Read")]
        case .idToken: return credential + [(.credentialType, "IdToken"), (.secret, "id"), (.realm, tenant)]
        case .account:
            return [
                (.homeAccountID, home), (.environment, "login.microsoftonline.com"), (.realm, tenant),
                (.localAccountID, "a"), (.username, "a@contoso.com"), (.authorityType, "MSSTS"),
            ]
        case .appMetadata:
            return [(.clientID, "hammer-client"), (.environment, "login.microsoftonline.com"), (.familyID, "1")]
        }
    }

    /// What each reader makes of an entry with `fields`: whether the scan keeps it, the decoder's entry, and
    /// the entry decoded from the span the scan kept.
    static func read<Entry: StoredCacheEntry>(_ fields: [(Field, String)], as section: StoredEntryScanner.Section)
        throws -> (kept: Bool, decoded: Entry?, decodedFromSpan: Entry?)
    {
        let members = fields.map { #""\#($0.0.name)": "\#($0.1)""# }.joined(separator: ", ")
        let file = Data(#"{"k": {\#(members)}}"#.utf8)
        return try file.withUnsafeBytes { bytes in
            var reader = CacheJSONReader(bytes)
            _ = try reader.openObject()
            let key = try reader.memberKey()
            let start = reader.position
            var scanner = StoredEntryScanner()
            let found = scanner.scan(&reader, section, key: key)
            reader.position = start
            var entry = CacheEntryReader()
            try entry.read(&reader)
            let fromSpan = found.map { StoredEntries<Entry>.decode([$0.span], in: file) }
            return (found != nil, Entry.read(from: entry), fromSpan?.first)
        }
    }

    /// Checks that the scan and the decoder agree on an entry with `fields`, and that `kept` is their verdict.
    static func agree<Entry: StoredCacheEntry & Equatable>(
        _: Entry.Type, _ section: StoredEntryScanner.Section, _ fields: [(Field, String)], kept: Bool,
        _ label: String
    ) throws {
        let (scanned, decoded, fromSpan): (Bool, Entry?, Entry?) = try read(fields, as: section)
        #expect(scanned == kept, "\(section) \(label): the scan")
        #expect((decoded != nil) == kept, "\(section) \(label): the decoder")
        #expect(fromSpan == decoded, "\(section) \(label): the kept span decodes to the decoder's entry")
    }

    @Test(
        "an entry missing any required field, or whose required timestamp is not one, is refused by both; a complete one is kept by both, as the same entry",
        arguments: [
            StoredEntryScanner.Section.accessToken, .refreshToken, .idToken, .account, .appMetadata,
        ])
    func eachRequiredField(_ section: StoredEntryScanner.Section) throws {
        let complete = Self.complete(section)
        let required = RequiredFields.of(section)
        #expect(!required.fields.isEmpty)
        var cases = [("complete", complete, true)]
        for field in required.fields {
            cases.append(("without \(field.name)", complete.filter { $0.0 != field }, false))
        }
        for field in required.timestamps {
            cases.append(
                ("with \(field.name) not a timestamp", complete.map { $0.0 == field ? (field, "soon") : $0 }, false))
        }
        for (label, fields, kept) in cases {
            switch section {
            case .accessToken: try Self.agree(AccessTokenEntry.self, section, fields, kept: kept, label)
            case .refreshToken: try Self.agree(RefreshTokenEntry.self, section, fields, kept: kept, label)
            case .idToken: try Self.agree(IDTokenEntry.self, section, fields, kept: kept, label)
            case .account: try Self.agree(AccountEntry.self, section, fields, kept: kept, label)
            case .appMetadata: try Self.agree(AppMetadataEntry.self, section, fields, kept: kept, label)
            }
        }
    }
}
