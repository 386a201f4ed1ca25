import Foundation

/// Prints the demo: one short line per step, details indented, a summary at the end.
struct Narrator: Sendable {
    struct StepFailure: Error {
        let step: String
        let underlying: any Error
    }

    func say(_ text: String) { print(TerminalText.safe(text)) }

    func detail(_ text: String) { print("    \(TerminalText.safe(text))") }

    /// Runs a numbered step; a failure names the step.
    func step<T: Sendable>(_ number: Int, _ title: String, _ body: () async throws -> T) async throws -> T {
        print("\(number). \(title)")
        do {
            return try await body()
        } catch {
            print("    ✗ failed: \(TerminalText.safe(ExitCodes.line(for: error)))")
            throw StepFailure(step: "\(number). \(title)", underlying: error)
        }
    }
}
