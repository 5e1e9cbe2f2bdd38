import ModelLintSupport

/// What a CocoaPods spec (`*.podspec`, Ruby, or `*.podspec.json`) ships: the file patterns of its `resources`,
/// `resource_bundles` and `source_files` attributes (CocoaPods compiles a model listed in either), from the root
/// spec, its platforms and its subspecs alike. Read as text and never evaluated: a Ruby value that is anything but
/// string literals, `%w` word lists, arrays and hashes of them (a variable, a method call, an interpolation) makes
/// the spec unreadable, and the patterns it did read are then not the whole story.
package struct Podspec: Sendable, Equatable {
    /// The patterns, relative to the spec's folder, as written (`{a,b}` alternatives unexpanded).
    package var patterns: [String]
    /// Whether every file attribute's value was read; false: what ships cannot be told from the patterns alone.
    package var isComplete: Bool

    package init(patterns: [String], isComplete: Bool) {
        self.patterns = patterns
        self.isComplete = isComplete
    }

    /// A spec is a page of Ruby or JSON; a bigger file is not read (and then decides nothing).
    package static let sizeLimit = 1 << 20

    package static let fileAttributes: Set<String> = [
        "resources", "resource", "resource_bundles", "resource_bundle", "source_files",
    ]

    /// Whether a pattern names the bundle at `relativePath` (relative to the spec's folder), a folder above it, or
    /// a version inside it (`Model.xcdatamodeld/*.xcdatamodel`); `versionFolders` are its versions' folder names.
    package func ships(_ relativePath: String, versionFolders: [String]) -> Bool {
        let candidates = [relativePath] + versionFolders.prefix(1).map { relativePath + "/" + $0 }
        return patterns.lazy.flatMap(Self.alternatives).contains { pattern in
            let pattern = pattern.hasPrefix("./") ? String(pattern.dropFirst(2)) : pattern
            return candidates.contains { Glob.matches(pattern: pattern, path: $0) }
        }
    }

    /// A pattern's `{a,b}` alternatives spelled out (nested groups too), at most 256 of them: a hostile spec
    /// cannot make them multiply without end; past that the pattern is kept as written.
    package static func alternatives(_ pattern: String) -> [String] {
        var results = [pattern]
        var expanded: [String] = []
        var changed = true
        while changed {
            changed = false
            expanded = []
            for item in results {
                guard let (prefix, options, suffix) = firstGroup(item) else {
                    expanded.append(item)
                    continue
                }
                changed = true
                expanded += options.map { prefix + $0 + suffix }
            }
            if expanded.count > 256 { return [pattern] }
            results = expanded
        }
        var seen: Set<String> = []
        return results.filter { seen.insert($0).inserted }
    }

    /// The first innermost `{…}` group of a pattern split at its top-level commas.
    private static func firstGroup(_ pattern: String) -> (String, [String], String)? {
        let chars = Array(pattern)
        var open: Int?
        for (i, c) in chars.enumerated() {
            if c == "{" { open = i }
            if c == "}", let start = open {
                let options = String(chars[(start + 1)..<i]).split(separator: ",", omittingEmptySubsequences: false)
                return (String(chars[..<start]), options.map(String.init), String(chars[(i + 1)...]))
            }
        }
        return nil
    }

    /// A `.podspec.json` (what `pod ipc spec` writes and trunk stores): every file attribute at any depth.
    package static func readJSON(_ bytes: [UInt8]) -> Podspec? {
        guard let (root, _) = try? JSONParser.parse(bytes, options: .init(json5: false, maxDepth: 32)) else {
            return nil
        }
        var spec = Podspec(patterns: [], isComplete: true)
        func strings(_ value: JSONValue, bundleNames: Bool) {
            switch value {
            case .string(let s): spec.patterns.append(s)
            case .array(let items):
                for item in items { strings(item, bundleNames: false) }
            // resource_bundles: bundle name -> patterns; the names are not paths.
            case .object(let pairs) where bundleNames:
                for (_, item) in pairs { strings(item, bundleNames: false) }
            default: spec.isComplete = false
            }
        }
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let pairs):
                for (key, item) in pairs {
                    if fileAttributes.contains(key) {
                        strings(item, bundleNames: key.hasPrefix("resource_bundle"))
                    } else {
                        visit(item)
                    }
                }
            case .array(let items): items.forEach(visit)
            default: break
            }
        }
        visit(root)
        return spec
    }

    /// A Ruby `.podspec`: each `<receiver>.<file attribute> = <value>` (any receiver: `s`, `spec.ios`, a subspec's
    /// block variable), its value read as literals.
    package static func readRuby(_ bytes: [UInt8]) -> Podspec {
        var reader = RubyLiterals(bytes)
        var spec = Podspec(patterns: [], isComplete: true)
        while let attribute = reader.nextFileAttributeAssignment() {
            guard let strings = reader.literalValue(bundleNames: attribute.hasPrefix("resource_bundle")) else {
                spec.isComplete = false
                continue
            }
            spec.patterns += strings
        }
        return spec
    }
}

/// Just enough of Ruby's lexer to find attribute assignments and read literal values: strings and comments are
/// skipped as such, so a `#` or `=` inside a string is never taken for code. Linear: every byte is looked at a
/// bounded number of times.
private struct RubyLiterals {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    private func isIdentifier(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
    }

    /// Moves past the next `.name =` whose name is a file attribute (not `==`, `=>` or `=~`), and returns the name.
    mutating func nextFileAttributeAssignment() -> String? {
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "#"): skipComment()
            case UInt8(ascii: "\""), UInt8(ascii: "'"): _ = readString()
            case UInt8(ascii: "."):
                i += 1
                let start = i
                while i < bytes.count, isIdentifier(bytes[i]) { i += 1 }
                let name = String(decoding: bytes[start..<i], as: UTF8.self)
                guard Podspec.fileAttributes.contains(name) else { continue }
                var j = i
                while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
                guard j < bytes.count, bytes[j] == UInt8(ascii: "=") else { continue }
                let after = j + 1 < bytes.count ? bytes[j + 1] : 0
                guard after != UInt8(ascii: "="), after != UInt8(ascii: ">"), after != UInt8(ascii: "~") else {
                    continue
                }
                i = j + 1
                return name
            default: i += 1
            }
        }
        return nil
    }

    private mutating func skipComment() {
        while i < bytes.count, bytes[i] != 0x0A { i += 1 }
    }

    /// A quoted string at `i`; nil for one that interpolates (`"#{…}"`), which is not a literal.
    private mutating func readString() -> String? {
        let quote = bytes[i]
        i += 1
        var value: [UInt8] = []
        var literal = true
        while i < bytes.count, bytes[i] != quote {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count {
                value.append(bytes[i + 1])
                i += 2
                continue
            }
            if quote == UInt8(ascii: "\""), bytes[i] == UInt8(ascii: "#"), i + 1 < bytes.count,
                bytes[i + 1] == UInt8(ascii: "{")
            {
                literal = false
            }
            value.append(bytes[i])
            i += 1
        }
        i += 1
        return literal ? String(decoding: value, as: UTF8.self) : nil
    }

    /// `%w[a b]` (any of `[({<` and its closer) at `i`: the words.
    private mutating func readWords() -> [String]? {
        guard i + 2 < bytes.count else { return nil }
        let closers: [UInt8: UInt8] = [
            UInt8(ascii: "["): UInt8(ascii: "]"), UInt8(ascii: "("): UInt8(ascii: ")"),
            UInt8(ascii: "{"): UInt8(ascii: "}"), UInt8(ascii: "<"): UInt8(ascii: ">"),
        ]
        guard let closer = closers[bytes[i + 2]] else { return nil }
        i += 3
        let start = i
        while i < bytes.count, bytes[i] != closer { i += 1 }
        let words = bytes[start..<min(i, bytes.count)].split { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        i += 1
        return words.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The value after `=`: string literals, `%w` lists, `[…]` and `{…}` of them (a hash's keys, bundle names, are
    /// not paths), `+`; it ends at a line break outside brackets that does not follow `,`, `+` or `=>`, or at `;`.
    /// nil when anything else is in it; then reading goes on after it.
    mutating func literalValue(bundleNames: Bool) -> [String]? {
        var strings: [String] = []
        var depth = 0
        var readable = true
        var continues = true  // right after `=`, the value may start on the next line
        var pendingKey: String?
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A:
                i += 1
                if depth == 0 && !continues { return readable ? strings + (pendingKey.map { [$0] } ?? []) : nil }
            case UInt8(ascii: "#"): skipComment()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                if let s = readString() {
                    if let key = pendingKey { strings.append(key) }
                    pendingKey = s
                } else {
                    readable = false
                }
                continues = false
            case UInt8(ascii: "%")
            where i + 1 < bytes.count
                && (bytes[i + 1] == UInt8(ascii: "w")
                    || bytes[i + 1] == UInt8(ascii: "W")):
                if let key = pendingKey { strings.append(key) }
                pendingKey = nil
                if let words = readWords() { strings += words } else { readable = false }
                continues = false
            case UInt8(ascii: "["), UInt8(ascii: "{"), UInt8(ascii: "("):
                depth += 1
                i += 1
                continues = true
            case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ")"):
                depth -= 1
                i += 1
                continues = false
                if depth < 0 { return nil }
            case UInt8(ascii: ","), UInt8(ascii: "+"):
                if let key = pendingKey { strings.append(key) }
                pendingKey = nil
                i += 1
                continues = true
            case UInt8(ascii: "=") where i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: ">"):
                // `'Name' => [...]`: the string before it is a key.
                if !bundleNames, let key = pendingKey { strings.append(key) }
                pendingKey = nil
                i += 2
                continues = true
            case UInt8(ascii: ";"):
                i += 1
                if depth == 0 { return readable ? strings + (pendingKey.map { [$0] } ?? []) : nil }
            default:
                // `Name: [...]`, a symbol key in a hash.
                if depth > 0, isIdentifier(b) {
                    var j = i
                    while j < bytes.count, isIdentifier(bytes[j]) { j += 1 }
                    if j < bytes.count, bytes[j] == UInt8(ascii: ":"), j + 1 < bytes.count, bytes[j + 1] != 0x3A {
                        if let key = pendingKey { strings.append(key) }
                        pendingKey = nil
                        i = j + 1
                        continues = true
                        continue
                    }
                }
                // Anything else (a name, a call, an operator) is not a literal; the brackets are still followed,
                // so the value ends where Ruby's does.
                readable = false
                continues = false
                i += 1
            }
        }
        return readable ? strings + (pendingKey.map { [$0] } ?? []) : nil
    }
}
