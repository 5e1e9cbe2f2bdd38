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
}
