// The authorization response at the loopback redirect URI: the request target's path and query and,
// for a `form_post` POST, the body (`LoopbackRedirectListener.authorizationResponse`, over
// `FormEncoding.decode`).
//
// Input: a mode byte (odd: POST with a body), then the request target, then after the first newline
// the body.
import Foundation
import FuzzSupport

@testable import MSAL

@main
enum FuzzRedirect {
    static func main() { runFuzzer(fuzzRedirect) }
}

func fuzzRedirect(_ input: Data) {
    guard let mode = input.first else { return }
    let pieces = input.dropFirst().split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    let target = String(decoding: pieces[0], as: UTF8.self)
    let body = pieces.count > 1 ? String(decoding: pieces[1], as: UTF8.self) : ""
    let post = mode & 1 == 1
    let (path, parameters) = LoopbackRedirectListener.authorizationResponse(target: target, formBody: post ? body : nil)

    invariant(target.hasPrefix(path), "the path is the start of the request target")
    invariant(!path.contains("?"), "the path stops at the query")
    if !target.contains("?") && !post { invariant(parameters.isEmpty, "no query and no body: no parameters") }
    if post {
        for (name, value) in FormEncoding.decode(body) {
            invariant(parameters[name] == value, "a posted parameter wins over the query's")
        }
    }
    // What was decoded encodes and decodes to the same parameters (names and values are plain text).
    let encoded = FormEncoding.encode(parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    invariant(encoded.allSatisfy { $0.isASCII }, "form encoding is ASCII")
    invariant(FormEncoding.decode(encoded) == parameters, "parameters round-trip through the form encoding")
    // The decision the interactive flow makes from it: an error (it wins over a code) or a code.
    if let error = parameters["error"] {
        _ = OAuthErrorResponse.classify(error: error, subError: parameters["error_subcode"])
    }
}
