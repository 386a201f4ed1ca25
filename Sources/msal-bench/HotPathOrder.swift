import Foundation

extension CLIStartBenchmark {
    /// Writes the linker's symbol ordering file for `msal` (`Linking/msal-hot-path.order`): the functions its three
    /// commands run from a warm cache, in the order Callgrind first records them, then the data they read and write,
    /// in the order Valgrind's Lackey first sees it touched. The linker places each listed symbol's section side by
    /// side with the others', so that a start touches few pages of code and data.
    static func writeHotPathOrder(binaries: URL, to file: URL) async throws {
        try await withWarmCommands(binaries: binaries) { folder, _, environment, commands in
            // Valgrind cannot read the release build's split debug information; the symbol table is enough.
            let msal = folder.appendingPathComponent("msal-symbols-only").path
            _ = try output(of: "objcopy", ["--strip-debug", binaries.appendingPathComponent("msal").path, msal])
            let symbols = try DefinedSymbols(nm: output(of: "nm", ["--defined-only", "--format=posix", msal]))
            var functions = FirstSeen()
            var data = FirstSeen()
            for (index, command) in commands.enumerated() {
                let profile = folder.appendingPathComponent("callgrind-\(index).out")
                _ = try output(
                    of: "valgrind",
                    ["--tool=callgrind", "--quiet", "--demangle=no", "--callgrind-out-file=\(profile.path)", msal]
                        + command.arguments, environment: environment, input: command.inputFile)
                // `fn=(id) name` and `cfn=(id) name` name a function the first time its id appears.
                for line in try String(contentsOf: profile, encoding: .utf8).split(separator: "\n")
                where line.hasPrefix("fn=(") || line.hasPrefix("cfn=(") {
                    guard let space = line.firstIndex(of: " ") else { continue }
                    let name = line[line.index(after: space)...]
                    if symbols.functions.contains(name) { functions.add(name) }
                }
                let trace = folder.appendingPathComponent("lackey-\(index).out")
                _ = try output(
                    of: "valgrind",
                    ["--tool=lackey", "--quiet", "--trace-mem=yes", "--log-file=\(trace.path)", msal]
                        + command.arguments, environment: environment, input: command.inputFile)
                LackeyTrace.forEachDataAccess(in: try Data(contentsOf: trace)) { address in
                    if let name = symbols.datum(at: address) { data.add(name) }
                }
            }
            let order = functions.names + data.names
            try Data(order.map { "\($0)\n" }.joined().utf8).write(to: file, options: .atomic)
            print(
                "msal-bench: \(functions.names.count) functions and \(data.names.count) data symbols of msal written to \(file.path)"
            )
        }
    }
}

/// Names in the order they were first added, each once.
private struct FirstSeen {
    private(set) var names: [Substring] = []
    private var seen: Set<Substring> = []

    mutating func add(_ name: Substring) {
        if seen.insert(name).inserted { names.append(name) }
    }
}

/// The symbols `nm --format=posix` lists for a binary: its functions by name, its data by address.
private struct DefinedSymbols {
    let functions: Set<Substring>
    /// Sized data symbols (`d`, `b`, `r`: initialised, zeroed and read-only), sorted by address. Conformance
    /// descriptors (`…Mc`) are left out: the runtime's first conformance search reads every one of them, so listing
    /// them would move the read-only data of nearly every object, not that of the commands' own.
    private let data: [(start: UInt64, end: UInt64, name: Substring)]

    init(nm listing: String) {
        var functions: Set<Substring> = []
        var data: [(start: UInt64, end: UInt64, name: Substring)] = []
        // `name type value size`, value and size in hexadecimal.
        for line in listing.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 2, let type = fields[1].first else { continue }
            if "tTwW".contains(type) {
                functions.insert(fields[0])
            } else if "dDbBrR".contains(type), fields.count == 4, !fields[0].hasSuffix("Mc"),
                let start = UInt64(fields[2], radix: 16), let size = UInt64(fields[3], radix: 16), size > 0
            {
                data.append((start, start + size, fields[0]))
            }
        }
        self.functions = functions
        self.data = data.sorted { $0.start < $1.start }
    }

    /// The data symbol whose bytes hold `address`, if any.
    func datum(at address: UInt64) -> Substring? {
        var low = 0
        var high = data.count
        while low < high {
            let middle = (low + high) / 2
            if data[middle].start <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0, address < data[low - 1].end else { return nil }
        return data[low - 1].name
    }
}

/// A Lackey trace (`--trace-mem=yes`): a line per access, ` L addr,size`, ` S addr,size` and ` M addr,size` for
/// loads, stores and modifies, `I  addr,size` for instruction fetches, addresses in hexadecimal.
private enum LackeyTrace {
    /// Calls `body` with the address of each load, store and modify, in order.
    static func forEachDataAccess(in trace: Data, _ body: (UInt64) -> Void) {
        trace.withUnsafeBytes { bytes in
            var index = 0
            while index < bytes.count {
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let kind = end - index > 3 && bytes[index] == UInt8(ascii: " ") ? bytes[index + 1] : 0
                if kind == UInt8(ascii: "L") || kind == UInt8(ascii: "S") || kind == UInt8(ascii: "M") {
                    var address: UInt64 = 0
                    for offset in (index + 3)..<end {
                        guard let digit = hexDigit(bytes[offset]) else { break }
                        address = address << 4 | digit
                    }
                    body(address)
                }
                index = end + 1
            }
        }
    }

    private static func hexDigit(_ byte: UInt8) -> UInt64? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt64(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt64(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }
}
