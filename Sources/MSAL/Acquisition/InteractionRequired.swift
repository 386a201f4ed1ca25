import Foundation

extension MSALError {
    /// This failure as ``Code-swift.enum/interactionRequired``, for one only the user can resolve: the server's
    /// details are kept, and the claims challenge is the server's or else `claims`, the request's.
    func requiringInteraction(claims: String?) -> MSALError {
        MSALError(
            .interactionRequired, internalCode: internalCode, message, oauthError: oauthError,
            oauthSubError: oauthSubError, stsErrorCodes: stsErrorCodes, httpStatus: httpStatus,
            correlationID: correlationID, claimsChallenge: claimsChallenge ?? claims, underlyingError: underlyingError)
    }
}
