/// What each standard claim and header parameter of a Microsoft identity platform token means, as jwt.ms explains
/// them (after Microsoft's "ID token claims reference" and "Access token claims reference"): for the emulator's token
/// inspector and `msal decode` alike.
package enum ClaimGlossary {
    /// Claims whose value is a time in seconds since 1970, shown as a date too.
    package static let times: Set<String> = ["iat", "nbf", "exp", "auth_time", "pwd_exp", "xms_tcdt"]

    /// What a claim that is none of the standard ones is.
    package static let unknown = "Not a standard claim: set by the app's configuration or a test."

    /// The header parameters, by name.
    package static let header = Dictionary(uniqueKeysWithValues: headerList.map { ($0.key, $0.value) })

    /// The claims, by name.
    package static let claims = Dictionary(uniqueKeysWithValues: claimList.map { ($0.key, $0.value) })

    /// `names` in the glossary's order (`header` for header parameters, else claims; the order Entra writes them in),
    /// then those it does not know, alphabetically.
    package static func ordered(_ names: some Sequence<String>, header: Bool = false) -> [String] {
        let order = header ? headerList.map(\.key) : claimList.map(\.key)
        let given = Set(names)
        return order.filter(given.contains) + given.subtracting(order).sorted()
    }

    private static let headerList: KeyValuePairs<String, String> = [
        "typ": "The media type of the token: JWT.",
        "alg": "The algorithm that signed the token (RS256: RSA with SHA-256).",
        "kid": "The id of the key that signed the token, as published in the issuer's JWKS.",
        "x5t": "The thumbprint of the signing key's certificate (the same as kid for Entra's keys).",
        "nonce": "A value the resource provider checks (Graph tokens carry it; they are not for apps to validate).",
    ]

    private static let claimList: KeyValuePairs<String, String> = [
        "aud":
            "The audience: who the token is for (a client id for an ID token, an API's app id URI or client id for an access token).",
        "iss": "The issuer: the security token service and the tenant that issued the token.",
        "iat": "Issued at: when the token was issued.",
        "nbf": "Not before: the token is not valid before this time.",
        "exp": "Expires: the token is not valid after this time.",
        "idp":
            "The identity provider that authenticated the subject, when it is not the issuer (a guest's home tenant).",
        "aio": "An internal claim Entra uses to reuse tokens; not for apps.",
        "acr": "Authentication context class: 0 when the user did not meet ISO/IEC 29115 requirements, 1 otherwise.",
        "acrs": "The authentication context class references the user satisfied (conditional access).",
        "amr": "Authentication methods: how the subject authenticated (pwd, mfa, otp…).",
        "appid": "The application id of the client that asked for the token (v1 tokens).",
        "appidacr":
            "How the client authenticated (v1): 0 public client, 1 secret, 2 certificate or federated credential.",
        "azp": "Authorized party: the application id of the client that asked for the token (v2 tokens).",
        "azpacr":
            "How the client authenticated (v2): 0 public client, 1 secret, 2 certificate or federated credential.",
        "auth_time": "When the user last entered credentials.",
        "c_hash": "The hash of the authorization code the ID token came with.",
        "at_hash": "The hash of the access token the ID token came with.",
        "email": "The user's email address, when they have one.",
        "family_name": "The user's surname.",
        "given_name": "The user's given name.",
        "groups": "The object ids of the groups the subject belongs to.",
        "_claim_names": "Group overage: the groups are too many for the token; _claim_sources says where to get them.",
        "_claim_sources": "Group overage: the Microsoft Graph endpoint that lists the subject's groups.",
        "hasgroups": "The user is in at least one group, but too many to list in the token.",
        "ipaddr": "The IP address the user authenticated from.",
        "login_hint": "A hint for signing the same user in again (opaque).",
        "name": "The user's display name.",
        "nonce": "The nonce the app sent in the authorization request, to be compared against replays.",
        "oid": "The subject's object id in the tenant: the same for every app, the key for a user's data.",
        "onprem_sid": "The user's on-premises security identifier.",
        "preferred_username": "The primary username: an email address, phone number or other; for display only.",
        "puid": "An internal claim Entra uses; not for apps.",
        "rh": "An internal claim Entra uses to revalidate tokens; not for apps.",
        "roles": "The app roles (application permissions, or roles assigned to the user) granted to the subject.",
        "scp": "The delegated permissions (scopes) the client was granted for the user.",
        "sid": "The session id, for sign-out.",
        "sub": "The subject: the principal the token asserts information about, unique per app (pairwise).",
        "tid": "The tenant id the subject signed in to.",
        "unique_name": "A human-readable name for the subject (v1 tokens); for display only.",
        "upn": "The user principal name.",
        "uti": "The token's unique identifier, which Entra uses to revalidate tokens.",
        "ver": "The token's version: 1.0 or 2.0.",
        "wids": "The tenant-wide roles (directory roles) assigned to the user, as role template ids.",
        "xms_cc": "The client capabilities the client declared (cp1: continuous access evaluation).",
        "xms_ssm": "Internal; not for apps.",
        "xms_tcdt": "When the tenant was created.",
        "xms_mirid": "The managed identity's resource id.",
        "idtyp": "The kind of subject: app for a token issued to an application itself, user for a user.",
        "deviceid": "The id of the device the user signed in on.",
        "ctry": "The user's country or region.",
        "tenant_region_scope": "The region of the tenant.",
        "app_displayname": "The display name of the client that asked for the token.",
        "appid_v2": "The application id of the client (in some tokens).",
        "pwd_exp": "When the user's password expires.",
        "pwd_url": "Where the user can change their password.",
        "in_corp": "The user signed in from the corporate network.",
        "verified_primary_email": "The user's primary email addresses that are verified.",
        "verified_secondary_email": "The user's secondary email addresses that are verified.",
        "signin_state": "Sign-in state: kmsi (kept signed in), dvc_mngd (managed device), dvc_cmp (compliant device).",
        "xms_pdl": "The user's preferred data location (multi-geo tenants).",
        "xms_pl": "The user's preferred language.",
        "xms_tpl": "The tenant's preferred language.",
        "acct": "The user's account status in the tenant: 0 a member, 1 a guest.",
        "cnf": "Confirmation: the key the token is bound to (proof of possession).",
    ]
}
