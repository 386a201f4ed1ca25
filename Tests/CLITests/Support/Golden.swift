import Foundation
import Testing

/// Expected output kept in `Tests/CLITests/Golden/NAME.txt`. `UPDATE_GOLDEN=1 swift test` rewrites them.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    static func check(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            actual == expected, "output differs from Golden/\(name).txt:\n\(actual)", sourceLocation: sourceLocation)
    }
}
