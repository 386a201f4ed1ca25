import Foundation

/// Where a text stops being JSON, as a person finds it in an editor: the line and column (from 1, the column in
/// characters) and what is wrong there, e.g. `line 3, column 5: invalid value`.
package struct JSONSyntaxProblem: Sendable, Equatable, CustomStringConvertible {
    /// The line, from 1.
    package let line: Int
    /// The column in characters, from 1.
    package let column: Int
    /// What is wrong there, in lower case: `invalid value`, `the text ends early`.
    package let problem: String

    /// The first syntax problem in `data`; `nil` when it is JSON (a value of any kind at the top).
    package init?(in data: Data) {
        let error: NSError
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)
            return nil
        } catch let failure as NSError {
            error = failure
        }
        let detail = (error.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ""
        // Foundation says where: "Invalid value around character 14." (a byte offset), or that the text ended.
        if let match = detail.firstMatch(of: #/^(?<what>.+?) around character (?<offset>\d+)\.?$/#),
            let offset = Int(match.output.offset)
        {
            self.init(offset: min(offset, data.count), in: data, problem: String(match.output.what))
        } else if detail.localizedCaseInsensitiveContains("end of file") || data.isEmpty {
            self.init(offset: data.count, in: data, problem: "the text ends early")
        } else {
            self.init(offset: data.count, in: data, problem: detail.isEmpty ? "not JSON" : detail)
        }
    }

    /// The problem at byte `offset` of `data`.
    init(offset: Int, in data: Data, problem: String) {
        let before = data.prefix(offset)
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? before.startIndex
        line = before.count(where: { $0 == UInt8(ascii: "\n") }) + 1
        column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        let trimmed = problem.hasSuffix(".") ? String(problem.dropLast()) : problem
        self.problem = trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }

    package var description: String { "line \(line), column \(column): \(problem)" }
}
