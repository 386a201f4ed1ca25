/// How many values an option takes (``HotOption/arity``).
enum HotOptionArity: Sendable {
    /// A flag: no value.
    case flag
    /// One value, the next word (or after `=`); given twice, the last one wins.
    case value
    /// One value per occurrence, adding up (an array with ArgumentParser's `.next`).
    case repeated
    /// Values up to the next option (ArgumentParser's `.upToNextOption`); given twice, they add up.
    case list

    /// Whether the values of every occurrence go to the option together.
    var accumulates: Bool { self == .repeated || self == .list }
}

/// One option ``HotCommandLine`` reads: its spellings, how many values it takes, and where they go.
struct HotOption<Command>: Sendable {
    /// Its spellings, the first one naming it.
    let names: [String]
    /// How many values it takes.
    let arity: HotOptionArity
    /// An option without which ArgumentParser refuses the command.
    var required = false
    /// Sets the values (all of them, for `.repeated` and `.list`); `false` when ArgumentParser would refuse them
    /// (it then reads the command line and says why).
    let apply: @Sendable (inout Command, [String]) -> Bool

    /// A flag; `set` records it.
    static func flag(_ names: String..., set: @escaping @Sendable (inout Command) -> Void) -> Self {
        Self(names: names, arity: .flag) { command, _ in
            set(&command)
            return true
        }
    }

    /// An option with one value, which `set` records (the last one, when it is given twice).
    static func value(_ names: String..., set: @escaping @Sendable (inout Command, String) -> Void) -> Self {
        Self(names: names, arity: .value) { command, values in
            guard let value = values.last else { return false }
            set(&command, value)
            return true
        }
    }
}
