/// Reads the command line of a ``HotCommand`` without ArgumentParser: only words it knows (the command's path,
/// then its options, the global ones and its operand, options as `--name value`, `--name=value` or `-n value`);
/// anything else (help, `--version`, a global option before the command, an unknown or malformed option, a value
/// that fails validation) gives `nil`, and ArgumentParser reads the command line and answers as it always does.
///
/// Each command is read by name, not through a list of metatypes, so that ``read(_:_:)`` is compiled for each
/// and nothing on the way looks up a conformance at run time.
enum HotCommandLine {
    /// The command `arguments` (without the program's name) name, validated; `nil` when ArgumentParser must read it.
    static func command(_ arguments: [String]) -> (any HotCommand)? {
        if let token = read(TokenOptions.self, arguments) { return token }
        if let kube = read(KubeGetTokenOptions.self, arguments) { return kube }
        if let git = read(GitCredentialOptions.self, arguments) { return git }
        return nil
    }

    /// `Command` with the options `arguments` give, validated; `nil` when they do not name it or ArgumentParser
    /// must read them.
    static func read<Command: HotCommand>(_: Command.Type, _ arguments: [String]) -> Command? {
        let path = Command.hotPath
        guard arguments.starts(with: path) else { return nil }
        let options = Command.hotOptions
        var command = Command()
        var global = GlobalOptionValues()
        var words = arguments[path.count...]
        var operand = Command.hotOperand
        // By the option's index in `options`.
        var given = [Bool](repeating: false, count: options.count)
        var accumulated = [[String]](repeating: [], count: options.count)
        while let word = words.popFirst() {
            if word == operand {
                operand = nil
                continue
            }
            guard word.hasPrefix("-"), word.count > 1, word != "--" else { return nil }
            let (name, inline) = split(word)
            if let index = options.firstIndex(where: { $0.names.contains(name) }) {
                let option = options[index]
                guard let values = values(for: option.arity, inline: inline, words: &words) else { return nil }
                given[index] = true
                if option.arity.accumulates {
                    accumulated[index] += values
                } else if !option.apply(&command, values) {
                    return nil
                }
            } else if let option = GlobalOptionValues.hotOptions.first(where: { $0.names.contains(name) }) {
                guard let values = values(for: option.arity, inline: inline, words: &words),
                    option.apply(&global, values)
                else { return nil }
            } else {
                return nil
            }
        }
        guard operand == nil else { return nil }
        for index in 0..<options.count {
            let option = options[index]
            if option.required && !given[index] { return nil }
            if given[index] && option.arity.accumulates && !option.apply(&command, accumulated[index]) { return nil }
        }
        command.global = global
        do {
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
    private static func values(for arity: HotOptionArity, inline: String?, words: inout ArraySlice<String>)
        -> [String]?
    {
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
