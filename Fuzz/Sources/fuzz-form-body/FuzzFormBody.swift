// The emulator's form-body and query parser (`FormBody(encoded:)`), which reads every token request, sign-in
// form and authorize query.
//
// Input: the body's bytes.
import Foundation
import FuzzSupport

@testable import IdentityEmulator

@main
enum FuzzFormBody {
    static func main() { runFuzzer(fuzzFormBody) }
}

func fuzzFormBody(_ input: Data) {
    let text = String(decoding: input, as: UTF8.self)
    let form = FormBody(encoded: Substring(text))
    invariant(form.fields.keys.allSatisfy { !$0.isEmpty }, "no field has an empty name")
    // Bytes, not characters: "=" followed by a combining mark is one character but still an empty name.
    if let first = text.utf8.split(separator: UInt8(ascii: "&")).first, first.first != UInt8(ascii: "=") {
        invariant(!form.fields.isEmpty, "a body whose first pair has a name yields a field")
    }
    for (name, value) in form.fields {
        invariant(form[name] == value, "subscript reads the field")
        invariant(form.nonEmpty(name) == (value.isEmpty ? nil : value), "nonEmpty is the value unless empty")
    }
    // What was decoded encodes to ASCII and decodes to the same fields.
    let encoded = FormBody.encode(form.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    invariant(encoded.allSatisfy(\.isASCII), "form encoding is ASCII")
    invariant(FormBody(encoded: Substring(encoded)).fields == form.fields, "fields round-trip through the encoding")
}
