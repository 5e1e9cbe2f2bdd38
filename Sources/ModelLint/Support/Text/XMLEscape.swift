package enum XMLEscape {
    /// Attribute and text content: markup characters and quotes as references; line breaks and tabs as
    /// character references (kept in attribute values); every other unsafe character (controls XML 1.0
    /// cannot carry, U+FFFE, U+FFFF, C1 controls, bidi overrides) as a visible `\u{…}` escape.
    package static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            // The runner's legacy command syntax, `##[`, broken by a reference XML reads back as `[`.
            case "[" where out.hasSuffix("##"): out += "&#91;"
            case _ where ReportText.isUnsafe(scalar.value):
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The text of XML read from bytes without a parser: the five predefined entities and character references
    /// decoded; an unknown or unterminated reference is kept as written.
    package static func unescaped(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semicolon = rest[amp...].prefix(12).firstIndex(of: ";") else {
                result += rest[amp...]
                return result
            }
            let name = rest[rest.index(after: amp)..<semicolon]
            switch name {
            case "amp": result += "&"
            case "lt": result += "<"
            case "gt": result += ">"
            case "quot": result += "\""
            case "apos": result += "'"
            default:
                let scalar: UInt32? =
                    name.hasPrefix("#x")
                    ? UInt32(name.dropFirst(2), radix: 16)
                    : name.hasPrefix("#") ? UInt32(name.dropFirst(), radix: 10) : nil
                if let scalar, let character = Unicode.Scalar(scalar) {
                    result.unicodeScalars.append(character)
                } else {
                    result += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
