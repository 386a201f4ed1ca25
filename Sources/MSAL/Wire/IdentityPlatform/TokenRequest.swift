/// A grant posted to the token endpoint (RFC 6749 §4 and Microsoft's extensions, `protocol.md` §3.2). Each
/// type produces its whole form, in the order it is sent; confidential grants add client authentication to it.
protocol TokenRequest: Sendable {
    /// The `grant_type` value.
    var grantType: String { get }
    /// The form's fields, `grant_type` among them.
    var form: [(String, String)] { get }
}
