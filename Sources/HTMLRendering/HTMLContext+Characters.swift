/// ASCII character classes as the HTML tokenizer defines them; non-ASCII is never whitespace, a letter or a
/// digit there, and names are lowercased in ASCII only.
extension HTMLContext {
    static func isSpace(_ char: Unicode.Scalar) -> Bool {
        char == " " || char == "\t" || char == "\n" || char == "\r" || char == "\u{0C}"
    }

    static func isLetter(_ char: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(char) || ("A"..."Z").contains(char)
    }

    static func isDigit(_ char: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(char)
    }

    static func lowered(_ char: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(char) ? Unicode.Scalar(char.value + 32)! : char
    }
}
