/// Text from elsewhere (the identity platform, a redirect, Graph, a directory) made safe to print: terminal control
/// characters are dropped, so a server cannot clear the screen, draw a fake prompt, retitle the window or write the
/// clipboard (ANSI CSI and OSC sequences) through an error description or a display name. Line breaks and tabs stay;
/// carriage returns, C0 and C1 controls, DEL and the bidirectional overrides that reorder what is shown go.
enum TerminalText {
    static func safe(_ text: String) -> String {
        var text = text
        // ASCII without a control to drop (a token, most messages) needs no look at scalars: one pass on the bytes.
        if text.withUTF8({ $0.allSatisfy { $0 < 0x80 && !isUnsafe(Unicode.Scalar($0)) } }) { return text }
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !isUnsafe($0) })
        return String(kept)
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
