/// One option ``HotCommandLine`` reads: its spellings, how many values it takes, and where they go.
struct HotOption<Command>: Sendable {
    enum Arity: Sendable {
        /// A flag: no value.
        case flag
        /// One value, the next word (or after `=`); given twice, the last one wins.
        case value
        /// One value per occurrence, adding up (an array with ArgumentParser's `.next`).
        case repeated
        /// Values up to the next option (ArgumentParser's `.upToNextOption`); given twice, they add up.
        case list
    }

    /// Its spellings, the first one naming it.
    let names: [String]
    let arity: Arity
    /// An option without which ArgumentParser refuses the command.
    var required = false
    /// Sets the values (all of them, for `.repeated` and `.list`); `false` when ArgumentParser would refuse them
    /// (it then reads the command line and says why).
    let apply: @Sendable (inout Command, [String]) -> Bool

    /// A flag that sets `keyPath`.
    static func flag(_ names: String..., to keyPath: WritableKeyPath<Command, Bool> & Sendable) -> Self {
        Self(names: names, arity: .flag) { command, _ in
            command[keyPath: keyPath] = true
            return true
        }
    }

    /// An option whose value `keyPath` takes.
    static func value(_ names: String..., to keyPath: WritableKeyPath<Command, String?> & Sendable) -> Self {
        Self(names: names, arity: .value) { command, values in
            command[keyPath: keyPath] = values.last
            return true
        }
    }
}
