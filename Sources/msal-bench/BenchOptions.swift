/// `msal-bench`'s arguments: the sections to run (all when none is named) and `--framework`, which chooses the
/// frameworks of the `webapi` section.
struct BenchOptions {
    /// The section names given.
    var sections: Set<String> = []
    /// The frameworks `webapi` measures: Hummingbird (the anchor) and Vapor, unless `--framework hummingbird`.
    var frameworks: [WebFramework] = WebFramework.allCases

    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    init(arguments: some Sequence<String>) throws {
        var remaining = arguments.makeIterator()
        while let argument = remaining.next() {
            let value: String?
            if argument == "--framework" {
                value = remaining.next()
            } else if argument.hasPrefix("--framework=") {
                value = String(argument.dropFirst("--framework=".count))
            } else {
                sections.insert(argument)
                continue
            }
            let names = WebFramework.allCases.map(\.rawValue).joined(separator: ", ")
            guard let value else { throw Refusal(description: "--framework needs a value: one of \(names)") }
            guard let framework = WebFramework(rawValue: value) else {
                throw Refusal(description: "unknown framework '\(value)' for --framework: one of \(names)")
            }
            // Hummingbird is always measured: its rows are the anchor beside another framework's.
            frameworks = framework == .hummingbird ? [.hummingbird] : [.hummingbird, framework]
        }
    }
}
