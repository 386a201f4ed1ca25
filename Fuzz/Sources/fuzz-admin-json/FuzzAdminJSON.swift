// The JSON bodies the emulator reads: its JSON parser (`JSONValue.parse`), the admin API's `POST clock`,
// `POST scenarios` and `POST workload/token` bodies, and a directory file (`--config`, `Directory.decode`).
//
// Input: the body's bytes; the first byte picks which reader gets the rest (all of them get the JSON parser).
import Foundation
import FuzzSupport

@testable import IdentityEmulator

@main
enum FuzzAdminJSON {
    static func main() { runFuzzer(fuzzAdminJSON) }
}

/// The workload issuer's routes on an emulator core that is never served (no network).
private let workload = WorkloadIssuerRoutes(core: try! EmulatorCore.offline())

func fuzzAdminJSON(_ input: Data) {
    guard let selector = input.first else { return }
    let body = Data(input.dropFirst())
    if let value = try? JSONValue.parse(body) {
        let again = try? JSONValue.parse(Data(value.serialized.utf8))
        invariant(
            again.map(numbersAsDoubles) == numbersAsDoubles(value),
            "what is parsed serializes and parses to the same value")
    }
    switch selector % 4 {
    case 0:
        if case .success(let seconds) = AdminRoutes.clockOffset(body) {
            invariant(seconds.isFinite && abs(seconds) <= 100 * 365 * 86_400, "a clock offset within ±100 years")
        }
    case 1:
        if let scenario = try? AdminRoutes.scenario(body) {
            invariant(scenario.count > 0, "a scenario is armed for at least one request")
        }
    case 2:
        let status = workload.mint(body).status.code
        invariant(status == 200 || status == 400, "a token or a usage error, never \(status)")
    default:
        if let directory = try? Directory.decode(body) {
            // A directory that passed validation can be indexed and served.
            let index = DirectoryIndex(directory)
            for user in directory.users { invariant(index.user(objectID: user.id) != nil, "every user is indexed") }
        }
    }
}

/// `value` with every number a `Double`: Foundation's decoder reads `3.6e+17`, which a large `Double` serializes to,
/// as the integer it equals, so a round trip may change a number's case but never its value.
func numbersAsDoubles(_ value: JSONValue) -> JSONValue {
    switch value {
    case .int(let i): .double(Double(i))
    case .array(let items): .array(items.map(numbersAsDoubles))
    case .object(let members): .object(members.map { ($0.0, numbersAsDoubles($0.1)) })
    default: value
    }
}
