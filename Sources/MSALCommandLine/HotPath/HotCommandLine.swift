import ArgumentParser

/// Reads the command line of a ``HotCommand`` without ArgumentParser: only words it knows (the command's path,
/// then its options, the global ones and its operand, options as `--name value`, `--name=value` or `-n value`);
/// anything else (help, `--version`, a global option before the command, an unknown or malformed option, a value
/// that fails validation) gives `nil`, and ArgumentParser reads the command line and answers as it always does.
enum HotCommandLine {
    static let commands: [any HotCommand.Type] = [Token.self, KubeGetToken.self, GitCredential.self]

    /// The command `arguments` (without the program's name) name, validated; `nil` when ArgumentParser must read it.
    static func command(_ arguments: [String]) -> (any HotCommand)? {
        for type in commands {
            if let command = read(type, arguments) { return command }
        }
        return nil
    }

    static func read<Command: HotCommand>(_ type: Command.Type, _ arguments: [String]) -> Command? {
        guard arguments.starts(with: Command.hotPath) else { return nil }
        var command = Command.hotDefault()
        var global = GlobalOptions.hotDefault()
        var words = arguments.dropFirst(Command.hotPath.count)[...]
        var given: Set<String> = []
        var operand = Command.hotOperand
        var accumulated: [String: (values: [String], option: HotOption<Command>)] = [:]
        while let word = words.popFirst() {
            if word == operand {
                operand = nil
                continue
            }
            guard word.hasPrefix("-"), word.count > 1, word != "--" else { return nil }
            let (name, inline) = split(word)
            if let option = Command.hotOptions.first(where: { $0.names.contains(name) }) {
                guard let values = values(for: option.arity, inline: inline, words: &words) else { return nil }
                given.insert(option.names[0])
                if option.arity == .list || option.arity == .repeated {
                    accumulated[option.names[0], default: ([], option)].values += values
                } else if !option.apply(&command, values) {
                    return nil
                }
            } else if let option = GlobalOptions.hotOptions.first(where: { $0.names.contains(name) }) {
                guard let values = values(for: option.arity, inline: inline, words: &words),
                    option.apply(&global, values)
                else { return nil }
            } else {
                return nil
            }
        }
        for (values, option) in accumulated.values where !option.apply(&command, values) { return nil }
        guard operand == nil, Command.hotOptions.allSatisfy({ !$0.required || given.contains($0.names[0]) }) else {
            return nil
        }
        command.global = global
        do {
            try global.validate()
            try command.validate()
        } catch {
            return nil
        }
        return command
    }

    /// `--name=value` as the name and the value; other words as themselves.
    private static func split(_ word: String) -> (name: String, inline: String?) {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// The values an option takes from the words after it; `nil` when they are not there.
    private static func values<Command>(
        for arity: HotOption<Command>.Arity, inline: String?, words: inout ArraySlice<String>
    ) -> [String]? {
        switch arity {
        case .flag:
            return inline == nil ? [] : nil
        case .value, .repeated:
            if let inline { return [inline] }
            guard let next = words.first, !next.hasPrefix("-") else { return nil }
            words.removeFirst()
            return [next]
        case .list:
            var values = inline.map { [$0] } ?? []
            while let next = words.first, !next.hasPrefix("-") {
                values.append(next)
                words.removeFirst()
            }
            return values.isEmpty ? nil : values
        }
    }
}
