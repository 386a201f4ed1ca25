import Foundation

extension Authority {
    /// This authority as the app's known authorities declare it: a URL on the host of a known B2C authority is a B2C
    /// policy too, whatever its own host or path suggested. A B2C custom domain (`https://login.contoso.com/…`)
    /// is B2C only this way or when declared (``Kind/b2c``, `MSALB2CAuthority`), as with MSAL's `knownAuthorities`.
    func declared(by knownAuthorities: [Authority]) -> Authority {
        guard kind != .b2c, knownAuthorities.contains(where: { $0.kind == .b2c && $0.environment == environment }),
            let policy = try? Authority(url.absoluteString, kind: .b2c)
        else { return self }
        return policy
    }
}
