import Foundation
import ModelLintSupport
import ModelLintModel

/// What the app's code and its project generator say about the model, read as text: string literals only,
/// never evaluated, nothing guessed. Staged migration names a model by its versionChecksum
/// (`NSManagedObjectModelReference(…, versionChecksum: "…")`) or loads a compiled version by name (`"X.mom"`,
/// `forResource: "X", withExtension: "mom"`, `NSManagedObjectModelReference(name: "X", …)`); a Tuist
/// `Project.swift` may hard-code a current version (`.coreDataModel("M.xcdatamodeld", currentVersion: "M 3")`).
package struct SourceReference: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        case checksum(String)
        case versionName(String)
        /// A generator's hard-coded current version for the bundle at this path (as written).
        case generatedCurrentVersion(bundle: String, version: String)
        /// Code that migrates a store step by step: `NSStagedMigrationManager(…)`, or an `NSMigrationManager(…)` in
        /// a file that calls `migrateStore(from:…)` (the first of a file; the API's name).
        case stepMigrator(String)
        /// Code that destroys a store (`destroyPersistentStore(at:…)`, `destroyPersistentStoreAtURL:…`): what a
        /// migration that fails costs in this app is its data, lost silently, rather than a crash.
        case storeDestroyer(String)
        /// Code that loads a compiled bundle by name (`NSPersistentContainer(name: "X")`,
        /// `forResource: "X", withExtension: "momd"`); "" for `NSManagedObjectModel.mergedModel(from:)`, which loads
        /// every bundle of the app.
        case modelName(String)
        /// A value transformer class the app declares.
        case transformer(AppTransformer)
    }

    package var kind: Kind
    package var location: SourceLocation

    package init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// What the scan reads, as a number: raised whenever what it reads changes, so results kept by an earlier scan are not
    /// taken for this one's.
    package static let scanRevision = 3

    /// Swift files larger than this are not scanned (generated code, vendored blobs).
    package static let sizeLimit = 2 << 20

    /// A literal after `prefix` (then optional spaces), on one line: `prefix "text"` -> text. Escapes and line
    /// breaks end the match: only plain literals are read.
    package static func literal(after prefix: [UInt8], in line: ArraySlice<UInt8>, from start: Int) -> (
        text: String, end: Int
    )? {
        var i = start + prefix.count
        while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: "\t") { i += 1 }
        // Objective-C's string literal: `@"text"`.
        if i + 1 < line.endIndex, line[i] == UInt8(ascii: "@"), line[i + 1] == UInt8(ascii: "\"") { i += 1 }
        guard i < line.endIndex, line[i] == UInt8(ascii: "\"") else { return nil }
        let open = i + 1
        var close = open
        // Scans stop past the longest literal read, so a long line costs its length, not length x literals.
        while close < line.endIndex, close - open <= 400, line[close] != UInt8(ascii: "\""),
            line[close] != UInt8(ascii: "\\")
        { close += 1 }
        guard close < line.endIndex, line[close] == UInt8(ascii: "\""), close > open, close - open <= 400 else {
            return nil
        }
        return (String(decoding: line[open..<close], as: UTF8.self), close + 1)
    }

    package static func occurrences(of pattern: [UInt8], in line: ArraySlice<UInt8>) -> [Int] {
        var found: [Int] = []
        var i = line.startIndex
        while i + pattern.count <= line.endIndex {
            if line[i] == pattern[0] && line[i..<(i + pattern.count)].elementsEqual(pattern) {
                found.append(i)
                i += pattern.count
            } else {
                i += 1
            }
        }
        return found
    }

    /// The references on one line, with their byte offsets.
    package static func references(in line: ArraySlice<UInt8>) -> [(offset: Int, kind: Kind)] {
        var found: [(Int, Kind)] = []
        let checksum = Array("versionChecksum:".utf8)
        for at in occurrences(of: checksum, in: line) {
            if let (text, _) = literal(after: checksum, in: line, from: at), text.count >= 16,
                text.utf8.allSatisfy({ $0.isBase64 })
            {
                found.append((at, .checksum(text)))
            }
        }
        // "X.mom": a literal ending in .mom, read back to its opening quote.
        for at in occurrences(of: Array(".mom\"".utf8), in: line) {
            var open = at - 1
            while open >= line.startIndex, at - open <= 201, line[open] != UInt8(ascii: "\""),
                line[open] != UInt8(ascii: "\\")
            { open -= 1 }
            guard open >= line.startIndex, line[open] == UInt8(ascii: "\""), at > open + 1, at - open <= 201,
                open == line.startIndex || line[open - 1] != UInt8(ascii: "\\")
            else { continue }
            found.append((open, .versionName(String(decoding: line[(open + 1)..<at], as: UTF8.self))))
        }
        // Swift's `forResource: "X", withExtension: "momd"`, Objective-C's `URLForResource:@"X" withExtension:@"momd"`.
        for resource in [Array("forResource:".utf8), Array("URLForResource:".utf8)] {
            for at in occurrences(of: resource, in: line) {
                guard let (name, end) = literal(after: resource, in: line, from: at) else { continue }
                var i = end
                while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: ",") { i += 1 }
                let ext = Array("withExtension:".utf8)
                guard i + ext.count <= line.endIndex, line[i..<(i + ext.count)].elementsEqual(ext) else { continue }
                switch literal(after: ext, in: line, from: i)?.text {
                case "mom": found.append((at, .versionName(name)))
                case "momd": found.append((at, .modelName(name)))
                default: break
                }
            }
        }
        // Swift's initializers, and Objective-C's `[[NSPersistentContainer alloc] initWithName:@"X"]` and
        // `[NSPersistentContainer persistentContainerWithName:@"X"]`.
        for container in [
            "NSPersistentContainer(name:", "NSPersistentCloudKitContainer(name:", "Container alloc] initWithName:",
            "Container persistentContainerWithName:",
        ] {
            let call = Array(container.utf8)
            for at in occurrences(of: call, in: line) {
                if let (name, _) = literal(after: call, in: line, from: at) { found.append((at, .modelName(name))) }
            }
        }
        if let at =
            (occurrences(of: Array("mergedModel(from".utf8), in: line)
            + occurrences(of: Array("mergedModelFromBundles:".utf8), in: line)).min()
        {
            found.append((at, .modelName("")))
        }
        // A call, not a comment or a string about one (`isCode`). Swift's `NSMigrationManager(…)`, Objective-C's
        // `[NSMigrationManager alloc]`; then the code that destroys a store.
        for api in ["NSStagedMigrationManager", "NSMigrationManager"] {
            guard
                let at =
                    (occurrences(of: Array((api + "(").utf8), in: line)
                    + occurrences(of: Array(("[" + api + " alloc]").utf8), in: line)).min(),
                isCode(at, in: line)
            else { continue }
            found.append((at, .stepMigrator(api)))
        }
        if let at =
            (occurrences(of: Array("destroyPersistentStore(".utf8), in: line)
            + occurrences(of: Array("destroyPersistentStoreAtURL:".utf8), in: line)).min(),
            isCode(at, in: line)
        {
            found.append((at, .storeDestroyer("destroyPersistentStore")))
        }
        let reference = Array("NSManagedObjectModelReference(".utf8)
        for at in occurrences(of: reference, in: line) {
            var i = at + reference.count
            while i < line.endIndex, line[i] == UInt8(ascii: " ") { i += 1 }
            let label = Array("name:".utf8)
            guard i + label.count <= line.endIndex, line[i..<(i + label.count)].elementsEqual(label),
                let (name, _) = literal(after: label, in: line, from: i)
            else { continue }
            found.append((at, .versionName(name)))
        }
        let model = Array("oreDataModel(".utf8)
        for at in occurrences(of: model, in: line)
        where at > line.startIndex && (line[at - 1] == UInt8(ascii: "c") || line[at - 1] == UInt8(ascii: "C")) {
            guard let (bundle, end) = literal(after: [], in: line, from: at + model.count),
                bundle.hasSuffix(".xcdatamodeld")
            else { continue }
            var i = end
            while i < line.endIndex, line[i] == UInt8(ascii: " ") || line[i] == UInt8(ascii: ",") { i += 1 }
            let label = Array("currentVersion:".utf8)
            guard i + label.count <= line.endIndex, line[i..<(i + label.count)].elementsEqual(label),
                let (version, _) = literal(after: label, in: line, from: i)
            else { continue }
            found.append((at - 1, .generatedCurrentVersion(bundle: bundle, version: version)))
        }
        // Code only: a literal or a call in a comment (`/// loads "Shop 2.mom"`) is documentation, not a load.
        found.sort { $0.0 < $1.0 }
        let code = areCode(found.map(\.0), in: line)
        return zip(found, code).filter(\.1).map(\.0)
    }

    /// Whether what starts at `at` is code, not a comment or a string about it: nothing before it on the line opens
    /// a comment (`//`, a `*` or `/*` starting the line), and the quotes before it are balanced.
    static func isCode(_ at: Int, in line: ArraySlice<UInt8>) -> Bool { areCode([at], in: line)[0] }

    /// `isCode` for each of `offsets` (ascending), in one pass over the line: a line with thousands of references
    /// is read once, not once per reference. A `//` wholly before an offset, a line that starts with `*` or `/*`
    /// (after white space), or an odd number of quotes before it, makes it not code.
    static func areCode(_ offsets: [Int], in line: ArraySlice<UInt8>) -> [Bool] {
        guard !offsets.isEmpty else { return [] }
        let code = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if code.first == UInt8(ascii: "*") || code.starts(with: Array("/*".utf8)) {
            return offsets.map { _ in false }
        }
        let slash = UInt8(ascii: "/")
        let comment = line.indices.first { $0 + 1 < line.endIndex && line[$0] == slash && line[$0 + 1] == slash }
        var quotes = 0
        var cursor = line.startIndex
        return offsets.map { at in
            while cursor < at, cursor < line.endIndex {
                if line[cursor] == UInt8(ascii: "\"") { quotes += 1 }
                cursor += 1
            }
            return (comment.map { $0 + 2 > at } ?? true) && quotes % 2 == 0
        }
    }

    package static let keywords: [[UInt8]] = keywordGroups.flatMap(\.keywords)

    /// The keywords by a piece each group shares, searched first: most files hold none of the pieces, and are passed
    /// over in as many searches as before Objective-C's spellings were read, not one per keyword.
    static let keywordGroups: [(anchor: [UInt8], keywords: [[UInt8]])] = [
        ("Checksum", ["versionChecksum"]), (".mom", [".mom\""]), ("Resource", ["forResource", "URLForResource:"]),
        ("ObjectModelReference", ["NSManagedObjectModelReference"]), ("oreDataModel(", ["oreDataModel("]),
        ("mergedModel", ["mergedModel(from", "mergedModelFromBundles:"]),
        ("MigrationManager", ["MigrationManager(", "MigrationManager alloc]"]),
        ("Container", ["Container(name:", "Container alloc] initWithName:", "ContainerWithName:"]),
        ("destroyPersistentStore", ["destroyPersistentStore"]),
    ].map { (Array($0.0.utf8), $0.1.map { Array($0.utf8) }) }

    /// Every reference in a file's text, in order (one literal per line is what code holds; a call split over
    /// lines is not read).
    package static func scan(_ text: String, path: String) -> [SourceReference] {
        scan(bytes: Array(text.utf8), path: path)
    }

    /// The same, on the file's bytes: keywords by byte search, and only the lines holding one are read further.
    package static func scan(bytes: [UInt8], path: String) -> [SourceReference] {
        let present = keywordGroups.filter { ByteSearch.firstIndex(of: $0.anchor, in: bytes) != nil }.flatMap {
            $0.keywords.filter { ByteSearch.firstIndex(of: $0, in: bytes) != nil }
        }
        // Transformer declarations are read by a pass of their own (`AppTransformer.declared`), not line by line.
        guard !present.isEmpty || ByteSearch.firstIndex(of: AppTransformer.keyword, in: bytes) != nil else { return [] }
        // Lines end as Swift's (and C's) lexer ends them: at LF, CR or CRLF; a comment ends there too.
        let starts = ByteSearch.codeLineStarts(in: bytes)
        func line(containing offset: Int) -> Int {
            var low = 0
            var high = starts.count - 1
            while low < high {
                let mid = (low + high + 1) / 2
                if starts[mid] <= offset { low = mid } else { high = mid - 1 }
            }
            return low
        }
        var lines = Set<Int>()
        for keyword in present {
            var from = 0
            while let at = ByteSearch.firstIndex(of: keyword, in: bytes, from: from) {
                lines.insert(line(containing: at))
                from = at + keyword.count
            }
        }
        var found: [SourceReference] = []
        for l in lines.sorted() {
            var end = l + 1 < starts.count ? starts[l + 1] : bytes.count
            while end > starts[l], bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") {
                end -= 1
            }
            let slice = bytes[starts[l]..<end]
            // Columns in characters, counted once along the line (references come in offset order).
            var counted = starts[l]
            var column = 1
            for (offset, kind) in references(in: slice) {
                column += String(decoding: bytes[counted..<offset], as: UTF8.self).count
                counted = offset
                found.append(
                    SourceReference(kind: kind, location: SourceLocation(file: path, line: l + 1, column: column)))
            }
        }
        found += AppTransformer.declared(in: bytes, lineOf: { line(containing: $0) + 1 }, path: path)
        // One step migrator per file: the first; a migration manager only where the file migrates a store with it.
        let migratesStores =
            ByteSearch.firstIndex(of: Array("migrateStore(".utf8), in: bytes) != nil
            || ByteSearch.firstIndex(of: Array("migrateStoreFromURL:".utf8), in: bytes) != nil
        var migrator = false
        return found.filter { reference in
            guard case .stepMigrator(let api) = reference.kind else { return true }
            guard !migrator, api == "NSStagedMigrationManager" || migratesStores else { return false }
            migrator = true
            return true
        }
    }
}

private extension UInt8 {
    var isBase64: Bool {
        (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
            || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || self == UInt8(ascii: "+")
            || self == UInt8(ascii: "/") || self == UInt8(ascii: "=")
    }
}

/// A value transformer class the app declares: `class ColorTransformer: NSSecureUnarchiveFromDataTransformer`, on
/// one line whose text names a transformer (a chain through another app class is followed when that class's line
/// does too). Read as text like every reference: the class's names, what it subclasses, and its
/// `allowedTopLevelClasses` when the override returns a literal list (`[UIColor.self, NSArray.self]`).
package struct AppTransformer: Sendable, Equatable {
    package var className: String
    /// What it subclasses, as written (the last component of a dotted name).
    package var base: String
    /// The names a model may give it: the class's, its `@objc(Name)`, and `NSValueTransformerName` literals in
    /// its file.
    package var names: [String]
    /// `allowedTopLevelClasses` when written as a literal list; nil: not overridden, or not a literal.
    package var allowedClasses: [String]?

    package init(className: String, base: String, names: [String], allowedClasses: [String]?) {
        self.className = className
        self.base = base
        self.names = names
        self.allowedClasses = allowedClasses
    }

    /// What a line declaring one names.
    static let keyword = Array("Transformer".utf8)
    static let classKeyword = Array("class ".utf8)

    /// The transformer classes a file declares, each located at its declaration.
    static func declared(in bytes: [UInt8], lineOf: (Int) -> Int, path: String) -> [SourceReference] {
        // Only the lines that name a transformer are read as text, each once.
        var found: [(offset: Int, transformer: AppTransformer)] = []
        var searched = 0
        while let hit = ByteSearch.firstIndex(of: keyword, in: bytes, from: searched) {
            var start = hit
            while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            let end = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: hit) ?? bytes.count
            searched = end
            guard ByteSearch.firstIndex(of: classKeyword, in: bytes, from: start, before: end) != nil,
                let declared = declaration(in: Substring(String(decoding: bytes[start..<end], as: UTF8.self)))
            else { continue }
            found.append((start, declared))
        }
        guard !found.isEmpty else { return [] }
        // What follows a declaration, up to the next one, belongs to it: its allowed classes and registered names.
        let utf8 = bytes
        for i in found.indices {
            let end = i + 1 < found.count ? found[i + 1].offset : utf8.count
            let body = String(decoding: utf8[found[i].offset..<end], as: UTF8.self)
            found[i].transformer.allowedClasses = allowedClasses(in: body)
            for literal in registeredNames(in: body) where !found[i].transformer.names.contains(literal) {
                found[i].transformer.names.append(literal)
            }
        }
        return found.map {
            SourceReference(
                kind: .transformer($0.transformer), location: SourceLocation(file: path, line: lineOf($0.offset)))
        }
    }

    /// `@objc(Name) final class X: Base, Other {` -> X, Base, [X, Name].
    private static func declaration(in line: Substring) -> AppTransformer? {
        let code = line.components(separatedBy: "//")[0]
        guard let classRange = code.range(of: "class ") else { return nil }
        let before = code[..<classRange.lowerBound]
        guard !before.contains("\""), !before.contains("func ") else { return nil }
        let rest = code[classRange.upperBound...]
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        guard !name.isEmpty, name != "var", name != "func", name != "let" else { return nil }
        var after = rest.dropFirst(name.count).drop { $0 == " " }
        guard after.first == ":" else { return nil }
        after = after.dropFirst().drop { $0 == " " }
        let base = String(after.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        guard !base.isEmpty else { return nil }
        var names = [name]
        if let objc = before.range(of: "@objc("),
            let close = before[objc.upperBound...].firstIndex(of: ")")
        {
            let alias = String(before[objc.upperBound..<close])
            if !alias.isEmpty, alias != name { names.append(alias) }
        }
        return AppTransformer(
            className: name, base: String(base.split(separator: ".").last ?? Substring(base)), names: names,
            allowedClasses: nil)
    }

    /// The literal list an `allowedTopLevelClasses` override returns: `[A.self, B.self]`.
    private static func allowedClasses(in body: String) -> [String]? {
        guard let property = body.range(of: "allowedTopLevelClasses"),
            let open = body[property.upperBound...].firstIndex(of: "{"),
            let listStart = body[open...].firstIndex(of: "["),
            let listEnd = body[listStart...].firstIndex(of: "]")
        else { return nil }
        // The list must be what the accessor returns: nothing but `return` between the brace and the bracket.
        let between = body[body.index(after: open)..<listStart].trimmingCharacters(in: .whitespacesAndNewlines)
        guard between.isEmpty || between == "return" else { return nil }
        let items = body[body.index(after: listStart)..<listEnd].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let names = items.compactMap { item -> String? in
            guard item.hasSuffix(".self") else { return nil }
            return String(item.dropLast(5).split(separator: ".").last ?? "")
        }
        return names.count == items.count && !names.isEmpty ? names : nil
    }

    /// `NSValueTransformerName("X")`, `NSValueTransformerName(rawValue: "X")`.
    private static func registeredNames(in body: String) -> [String] {
        let text = Array(body.utf8)[...]
        let call = Array("NSValueTransformerName(".utf8)
        let labelled = Array("NSValueTransformerName(rawValue:".utf8)
        return SourceReference.occurrences(of: call, in: text).compactMap { start in
            SourceReference.literal(
                after: text[start...].starts(with: labelled) ? labelled : call, in: text, from: start)?.text
        }
    }
}

/// The app's transformer classes, resolved: which names are secure unarchivers (a subclass, directly or through
/// other app classes, of `NSSecureUnarchiveFromDataTransformer`) and the classes each allows.
package struct AppTransformers: Sendable, Equatable {
    package var classes: [AppTransformer]

    package init(_ classes: [AppTransformer] = []) {
        self.classes = classes
    }

    package init(_ references: [SourceReference]) {
        self.init(
            references.compactMap { reference in
                if case .transformer(let t) = reference.kind { return t } else { return nil }
            })
    }

    /// The secure unarchiver a model's `valueTransformerName` names, with what it allows (nil: not a literal
    /// anywhere along its chain); nil when the name is no secure app class.
    package func secure(named name: String) -> (transformer: AppTransformer, allowed: [String]?)? {
        guard var current = classes.first(where: { $0.names.contains(name) }) else { return nil }
        let found = current
        var allowed = current.allowedClasses
        var seen: Set<String> = [current.className]
        while current.base != "NSSecureUnarchiveFromDataTransformer" {
            guard let parent = classes.first(where: { $0.className == current.base }),
                seen.insert(parent.className).inserted
            else { return nil }
            if allowed == nil { allowed = parent.allowedClasses }
            current = parent
        }
        return (found, allowed)
    }
}
