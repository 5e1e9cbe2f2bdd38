import Foundation
import ModelLintSupport

/// `project.pbxproj` as Xcode writes it: an OpenStep (old-style ASCII) property list. Read byte by byte into
/// `[String: Any]` (dictionaries, arrays and strings: the format has nothing else), in one pass linear in the
/// file: Foundation's reader spends 330 ms on a 1.5 MB project on Linux, where a pre-commit run has 50.
/// Untrusted: nesting deeper than `maximumDepth`, an unterminated string or comment, or a missing delimiter is
/// an error naming the byte offset, never a trap.
package enum ProjectFileParser {
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// Deeper than any project Xcode writes (objects sit at depth 2, build settings at 4).
    package static let maximumDepth = 64

    package static func parse(_ data: Data) throws -> Any {
        try [UInt8](data).withUnsafeBufferPointer { bytes in
            var parser = Parser(bytes: bytes)
            let value = try parser.value(depth: 0)
            try parser.skipSpace()
            guard parser.at == bytes.count else { throw parser.fail("text after the top-level value") }
            return value
        }
    }

    /// Only the project's `objects`, each with only the fields modellint reads: what `XcodeProject` needs,
    /// without a dictionary of boxed values for each of a big project's tens of thousands of objects.
    package static func objects(_ data: Data) throws -> [String: ProjectObject] {
        try table(data).objects
    }

    /// The objects, and the byte offset of each version group's id where it is defined (the line a finding
    /// about the group points at), recorded as the parser passes it.
    package static func table(_ data: Data) throws -> (objects: [String: ProjectObject], groupOffsets: [String: Int]) {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var parser = Parser(bytes: bytes)
            var objects: [String: ProjectObject]?
            var groupOffsets: [String: Int] = [:]
            try parser.expect(UInt8(ascii: "{"), "{")
            while try !parser.closes(UInt8(ascii: "}")) {
                let key = try parser.string()
                try parser.expect(UInt8(ascii: "="), "=")
                if key == "objects" {
                    // Xcode writes an object in about 300 bytes.
                    var table: [String: ProjectObject] = [:]
                    table.reserveCapacity(bytes.count / 300)
                    try parser.expect(UInt8(ascii: "{"), "{")
                    while try !parser.closes(UInt8(ascii: "}")) {
                        try parser.skipSpace()
                        let offset = parser.at
                        let id = try parser.string()
                        try parser.expect(UInt8(ascii: "="), "=")
                        let object = try parser.object()
                        if object.isa == "XCVersionGroup", groupOffsets[id] == nil { groupOffsets[id] = offset }
                        table[id] = object
                        try parser.expect(UInt8(ascii: ";"), ";")
                    }
                    objects = table
                } else {
                    try parser.skipValue(depth: 1)
                }
                try parser.expect(UInt8(ascii: ";"), ";")
            }
            guard let objects else { throw ParseError(description: "no objects") }
            return (objects, groupOffsets)
        }
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        func fail(_ what: String) -> ParseError { ParseError(description: "\(what) at byte \(at)") }

        /// Skips white space and both kinds of comment.
        mutating func skipSpace() throws {
            while at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                    at += 1
                case UInt8(ascii: "/") where at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: "/"):
                    while at < bytes.count && bytes[at] != UInt8(ascii: "\n") { at += 1 }
                case UInt8(ascii: "/") where at + 1 < bytes.count && bytes[at + 1] == UInt8(ascii: "*"):
                    // Xcode writes a comment beside every reference: its end is found with memchr.
                    var star = at + 2
                    while let found = memchr(bytes.baseAddress! + star, Int32(UInt8(ascii: "*")), bytes.count - star) {
                        star = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                        if star + 1 < bytes.count && bytes[star + 1] == UInt8(ascii: "/") { break }
                        star += 1
                    }
                    guard star + 1 < bytes.count, bytes[star] == UInt8(ascii: "*") else {
                        throw fail("an unterminated comment")
                    }
                    at = star + 2
                default:
                    return
                }
            }
        }

        /// Whether the container ends here (consuming its closing byte); an error at the end of the file.
        mutating func closes(_ byte: UInt8) throws -> Bool {
            try skipSpace()
            guard at < bytes.count else {
                throw fail("an unterminated \(byte == UInt8(ascii: "}") ? "dictionary" : "array")")
            }
            guard bytes[at] == byte else { return false }
            at += 1
            return true
        }

        /// A value read over and dropped: nothing is built.
        mutating func skipValue(depth: Int) throws {
            guard depth < maximumDepth else { throw fail("nesting deeper than \(maximumDepth) levels") }
            try skipSpace()
            guard at < bytes.count else { throw fail("the file ends where a value should be") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                while try !closes(UInt8(ascii: "}")) {
                    try skipString()
                    try expect(UInt8(ascii: "="), "=")
                    try skipValue(depth: depth + 1)
                    try expect(UInt8(ascii: ";"), ";")
                }
            case UInt8(ascii: "("):
                at += 1
                while try !closes(UInt8(ascii: ")")) {
                    try skipValue(depth: depth + 1)
                    try arraySeparator()
                }
            default:
                try skipString()
            }
        }

        /// One object of the table: the fields `ProjectObject` keeps, every other value skipped.
        mutating func object() throws -> ProjectObject {
            var object = ProjectObject()
            try expect(UInt8(ascii: "{"), "{")
            while try !closes(UInt8(ascii: "}")) {
                let key = try fieldName()
                try expect(UInt8(ascii: "="), "=")
                switch key {
                case "children", "files":
                    var list: [String] = []
                    try expect(UInt8(ascii: "("), "(")
                    while try !closes(UInt8(ascii: ")")) {
                        list.append(try string())
                        try arraySeparator()
                    }
                    if key == "children" { object.children = list } else { object.files = list }
                case "isa", "path", "sourceTree", "currentVersion", "fileRef":
                    try skipSpace()
                    guard at < bytes.count, bytes[at] != UInt8(ascii: "{"), bytes[at] != UInt8(ascii: "(") else {
                        // Not a string where Xcode writes one: kept out, as a reader of types would.
                        try skipValue(depth: 3)
                        break
                    }
                    let value = try string()
                    switch key {
                    case "isa": object.isa = Self.knownClasses[value] ?? value
                    case "path": object.path = value
                    case "sourceTree": object.sourceTree = value
                    case "currentVersion": object.currentVersion = value
                    default: object.fileRef = value
                    }
                default:
                    try skipValue(depth: 3)
                }
                try expect(UInt8(ascii: ";"), ";")
            }
            return object
        }

        /// After an array's element: a comma (the last one optional), or its end.
        mutating func arraySeparator() throws {
            try skipSpace()
            guard at < bytes.count else { throw fail("an unterminated array") }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
            } else if bytes[at] != UInt8(ascii: ")") {
                throw fail("expected , or )")
            }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            try skipSpace()
            guard at < bytes.count, bytes[at] == byte else { throw fail("expected \(what)") }
            at += 1
        }

        mutating func value(depth: Int) throws -> Any {
            guard depth < maximumDepth else { throw fail("nesting deeper than \(maximumDepth) levels") }
            try skipSpace()
            guard at < bytes.count else { throw fail("the file ends where a value should be") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var dictionary: [String: Any] = [:]
                while try !closes(UInt8(ascii: "}")) {
                    let key = try string()
                    try expect(UInt8(ascii: "="), "=")
                    dictionary[key] = try value(depth: depth + 1)
                    try expect(UInt8(ascii: ";"), ";")
                }
                return dictionary
            case UInt8(ascii: "("):
                at += 1
                var array: [Any] = []
                while try !closes(UInt8(ascii: ")")) {
                    array.append(try value(depth: depth + 1))
                    try arraySeparator()
                }
                return array
            default:
                return try string()
            }
        }

        /// The classes modellint reads, shared rather than one string per object.
        static let knownClasses: [String: String] = Dictionary(
            uniqueKeysWithValues: [
                "PBXFileReference", "PBXBuildFile", "PBXGroup", "PBXVariantGroup", "XCVersionGroup",
                "PBXSourcesBuildPhase",
            ].map { ($0, $0) })

        /// The fields `object()` keeps, with their bytes.
        static let keptFields: [(bytes: [UInt8], name: String)] = [
            "isa", "path", "sourceTree", "children", "files", "fileRef", "currentVersion",
        ].map { (Array($0.utf8), $0) }

        /// An object's field name: one `object()` keeps, else "" (compared as bytes: no string is made for the
        /// many fields no rule reads).
        mutating func fieldName() throws -> String {
            try skipSpace()
            let start = at
            try skipString()
            var end = at
            var first = start
            if bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'") {
                first += 1
                end -= 1
            }
            let length = end - first
            for field in Self.keptFields where field.bytes.count == length {
                let equal = field.bytes.withUnsafeBufferPointer {
                    memcmp(bytes.baseAddress! + first, $0.baseAddress!, length) == 0
                }
                if equal { return field.name }
            }
            return ""
        }

        /// An unquoted word passed over; a comment may follow it with no space (`/*` and `//` end it).
        mutating func skipWord() throws {
            let start = at
            while at < bytes.count && Self.isWordByte(bytes[at])
                && !(bytes[at] == UInt8(ascii: "/") && at + 1 < bytes.count
                    && (bytes[at + 1] == UInt8(ascii: "*") || bytes[at + 1] == UInt8(ascii: "/")))
            {
                at += 1
            }
            guard at > start else { throw fail("unexpected \(ReportText.escaped(String(UnicodeScalar(bytes[at]))))") }
        }

        /// A string passed over: its end found, nothing built (most of a project is build settings no rule reads).
        mutating func skipString() throws {
            try skipSpace()
            guard at < bytes.count else { throw fail("the file ends where a string should be") }
            let quote = bytes[at]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                try skipWord()
                return
            }
            let start = at
            at += 1
            while at < bytes.count && bytes[at] != quote {
                at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard at < bytes.count else {
                at = start
                throw fail("an unterminated string")
            }
            at += 1
        }

        /// A quoted string (with its escapes) or an unquoted word.
        mutating func string() throws -> String {
            try skipSpace()
            guard at < bytes.count else { throw fail("the file ends where a string should be") }
            let quote = bytes[at]
            guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                let start = at
                try skipWord()
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            }
            at += 1
            let start = at
            // Most strings have no escape: their bytes are the string.
            while at < bytes.count && bytes[at] != quote && bytes[at] != UInt8(ascii: "\\") { at += 1 }
            guard at < bytes.count else {
                at = start - 1
                throw fail("an unterminated string")
            }
            if bytes[at] == quote {
                defer { at += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
            }
            var unescaped = Array(bytes[start..<at])
            while at < bytes.count && bytes[at] != quote {
                guard bytes[at] == UInt8(ascii: "\\") else {
                    unescaped.append(bytes[at])
                    at += 1
                    continue
                }
                at += 1
                guard at < bytes.count else { break }
                switch bytes[at] {
                case UInt8(ascii: "n"): unescaped.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): unescaped.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "r"): unescaped.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "U"), UInt8(ascii: "u"):
                    // \U followed by up to four hex digits: a UTF-16 unit.
                    var value: UInt32 = 0
                    var digits = 0
                    while digits < 4, at + 1 < bytes.count, let digit = Self.hexValue(bytes[at + 1]) {
                        value = value << 4 | digit
                        at += 1
                        digits += 1
                    }
                    let scalar = UnicodeScalar(value) ?? "\u{FFFD}"
                    unescaped += Array(String(scalar).utf8)
                default: unescaped.append(bytes[at])
                }
                at += 1
            }
            guard at < bytes.count else {
                at = start - 1
                throw fail("an unterminated string")
            }
            at += 1
            return String(decoding: unescaped, as: UTF8.self)
        }

        /// Bytes of an unquoted word: the OpenStep format's (letters, digits, `_$+/:.-`), and UTF-8 beyond ASCII.
        static func isWordByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"),
                UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"), 0x80...0xFF:
                return true
            default:
                return false
            }
        }

        static func hexValue(_ byte: UInt8) -> UInt32? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
    }
}

/// The fields of a project object modellint reads (every other field is skipped, never built).
package struct ProjectObject: Equatable, Sendable {
    package var isa: String?
    package var path: String?
    package var sourceTree: String?
    package var currentVersion: String?
    package var fileRef: String?
    package var children: [String]?
    package var files: [String]?

    package init(
        isa: String? = nil, path: String? = nil, sourceTree: String? = nil, currentVersion: String? = nil,
        fileRef: String? = nil, children: [String]? = nil, files: [String]? = nil
    ) {
        self.isa = isa
        self.path = path
        self.sourceTree = sourceTree
        self.currentVersion = currentVersion
        self.fileRef = fileRef
        self.children = children
        self.files = files
    }

    /// The same fields from a general property list's dictionary (a project saved as XML or binary).
    package init(_ dictionary: [String: Any]) {
        self.init(
            isa: dictionary["isa"] as? String, path: dictionary["path"] as? String,
            sourceTree: dictionary["sourceTree"] as? String, currentVersion: dictionary["currentVersion"] as? String,
            fileRef: dictionary["fileRef"] as? String, children: dictionary["children"] as? [String],
            files: dictionary["files"] as? [String])
    }
}
