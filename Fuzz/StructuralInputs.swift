import Foundation

/// The structural mode (Fuzz/run --structural READER): the fuzzer's bytes are read as a recipe, and the recipe
/// builds an input every reader accepts as far as its structure goes, with what makes a few bytes describe a
/// great deal: objects shared by many references, offset-table slots that repeat one offset, cell pointers and
/// overflow chains that fan into one page, deep nesting, long lines. The reader must stay within the fuzzer's
/// time and memory limits (-timeout, -malloc_limit_mb) and never trap.
enum StructuralReader: String {
    case plist, archive, sqlite, json, swift
}

/// Reads numbers from the fuzzer's bytes; past the end it gives zeros.
struct Recipe {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func byte() -> Int {
        defer { at += 1 }
        return at < bytes.count ? Int(bytes[at]) : 0
    }

    mutating func number(_ limit: Int) -> Int {
        guard limit > 0 else { return 0 }
        return (byte() << 16 | byte() << 8 | byte()) % limit
    }

    var exhausted: Bool { at >= bytes.count }
}

enum StructuralInputs {
    /// A binary property list whose objects reference each other as the recipe says, and whose offset table may
    /// name one object from many slots.
    static func plist(_ recipe: inout Recipe, archive: Bool = false) -> [UInt8] {
        let objects = 2 + recipe.number(300)
        let extraSlots = recipe.byte() < 64 ? recipe.number(200_000) : recipe.number(64)
        let slots = objects + extraSlots
        let refSize = slots <= 0xFF ? 1 : slots <= 0xFFFF ? 2 : 4
        var out = Array("bplist00".utf8)
        func be(_ value: Int, _ width: Int) -> [UInt8] {
            (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        func marker(_ kind: UInt8, _ count: Int) -> [UInt8] {
            count < 15 ? [kind << 4 | UInt8(count)] : [kind << 4 | 0x0F, 0x12] + be(count, 4)
        }
        let keys = [
            "$objects", "$top", "root", "$class", "$classname", "NSEntities", "NSProperties", "NS.keys", "NS.objects",
            "NSEntityName", "NSPropertyName", "_XCCurrentVersionName", "NSStoreModelVersionHashes", "objects", "isa",
        ]
        var offsets: [Int] = []
        for index in 0..<objects {
            offsets.append(out.count)
            switch recipe.byte() % 8 {
            case 0, 1:
                let name = keys[recipe.byte() % keys.count]
                out += marker(0x5, name.utf8.count) + Array(name.utf8)
            case 2:
                out += [0x13] + be(recipe.number(1 << 24), 8)
            case 3:
                out += [0x80 | 3] + be(recipe.number(objects), 4)
            case 4, 5:
                // Arrays: short, or a fan of one repeated reference.
                let count = recipe.byte() < 32 ? recipe.number(60_000) : recipe.byte() % 8
                let target = recipe.number(slots)
                out += marker(0xA, count)
                for i in 0..<count {
                    out += be(i % 4 == 0 || recipe.exhausted ? target : recipe.number(slots), refSize)
                }
            default:
                let count = recipe.byte() % 12
                out += marker(0xD, count)
                for _ in 0..<count { out += be(recipe.number(slots), refSize) }
                for _ in 0..<count {
                    out += be(index == 0 && archive ? 1 + recipe.number(slots - 1) : recipe.number(slots), refSize)
                }
            }
        }
        let table = out.count
        let repeated = recipe.number(objects)
        for slot in 0..<slots {
            out += be(offsets[slot < objects ? slot : (recipe.byte() < 200 ? repeated : recipe.number(objects))], 4)
        }
        out += [0, 0, 0, 0, 0, 0, 4, UInt8(refSize)] + be(slots, 8) + be(recipe.number(objects), 8) + be(table, 8)
        return out
    }

    /// A store, built from a real one (Fixtures' seed bytes): the recipe rewrites cell counts and pointers of
    /// table pages so they repeat one cell, overflow pointers so chains share or loop, and interior children.
    static func sqlite(_ recipe: inout Recipe, seed: [UInt8]) -> [UInt8] {
        var bytes = seed
        guard bytes.count >= 1024 else { return bytes }
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        guard pageSize >= 512 else { return bytes }
        let pages = bytes.count / pageSize
        for _ in 0..<(1 + recipe.byte() % 6) {
            let page = recipe.number(pages)
            let base = page * pageSize + (page == 0 ? 100 : 0)
            guard base + 12 < bytes.count else { continue }
            switch recipe.byte() % 4 {
            case 0:
                // One cell, many pointers.
                let cellAt = base + (bytes[base] == 0x05 ? 12 : 8)
                guard cellAt + 2 <= bytes.count else { continue }
                let fan = recipe.number((pageSize - (cellAt - page * pageSize)) / 2)
                bytes[base + 3] = UInt8(fan >> 8 & 0xFF)
                bytes[base + 4] = UInt8(fan & 0xFF)
                let first = (bytes[cellAt], bytes[cellAt + 1])
                for i in 0..<fan where cellAt + 2 * i + 1 < (page + 1) * pageSize {
                    bytes[cellAt + 2 * i] = first.0
                    bytes[cellAt + 2 * i + 1] = first.1
                }
            case 1:
                // An interior child or right pointer naming this page or another.
                let target = 1 + recipe.number(pages)
                let at = base + 8
                for (i, shift) in [24, 16, 8, 0].enumerated() { bytes[at + i] = UInt8(target >> shift & 0xFF) }
            case 2:
                // Four bytes anywhere in the page set to a page number (an overflow pointer, say).
                let at = page * pageSize + recipe.number(pageSize - 4)
                let target = 1 + recipe.number(pages)
                for (i, shift) in [24, 16, 8, 0].enumerated() { bytes[at + i] = UInt8(target >> shift & 0xFF) }
            default:
                // A payload length grown: the cell now claims an overflow chain.
                let at = page * pageSize + recipe.number(pageSize - 2)
                bytes[at] = UInt8(0x80 | recipe.byte() & 0x7F)
                bytes[at + 1] = UInt8(recipe.byte() & 0x7F)
            }
        }
        return bytes
    }

    /// JSON shaped like a baseline: many findings, some deep, some with long or escaped strings.
    static func json(_ recipe: inout Recipe) -> [UInt8] {
        var out = "{ \"format\": \(1 + recipe.byte() % 3), \"findings\": [\n"
        let findings = recipe.number(20_000)
        for i in 0..<findings {
            if recipe.byte() < 8 {
                let depth = recipe.number(200)
                out +=
                    String(repeating: "[", count: depth)
                    + String(repeating: "]", count: recipe.byte() < 128 ? depth : depth / 2)
            } else {
                let long = recipe.byte() < 16 ? String(repeating: "\\u00e9x", count: recipe.number(50_000)) : "m\(i)"
                out +=
                    "{ \"ruleId\": \"r\", \"file\": \"f\", \"message\": \"\(long)\", \"key\": \"k\(recipe.number(1000))\" }"
            }
            out += i == findings - 1 ? "\n" : ",\n"
        }
        if recipe.byte() < 250 { out += "] }\n" }
        return Array(out.utf8)
    }

    /// Swift text with what the source scanner and the SwiftData declaration scanner search for, on long lines, in
    /// odd places, nested deep and left unterminated.
    /// Swift files from one input: a form feed starts the next file (at most eight), so declarations reach
    /// across files as an app's do.
    static func swiftFiles(_ bytes: [UInt8]) -> [SwiftSourceFile] {
        bytes.split(separator: 0x0C, maxSplits: 7, omittingEmptySubsequences: false).enumerated().map {
            SwiftSourceFile(path: "fuzz/F\($0.offset).swift", bytes: Array($0.element))
        }
    }

    static func swift(_ recipe: inout Recipe) -> [UInt8] {
        let pieces = [
            "\"M.mom\",", "versionChecksum: \"", "forResource: \"M 2\", withExtension: \"mom\")",
            "NSManagedObjectModelReference(name: \"X\"",
            ".coreDataModel(\"M.xcdatamodeld\", currentVersion: \"M 3\")", "\\", "\"", "\n", "é",
            String(repeating: "x", count: 300),
            "@Model final class A: B {", "enum V: VersionedSchema { static var models: [any PersistentModel.Type] { [",
            "A.self, V.A.self, Self.A.self", "}", "{", "(", ")", "[", "]", "\"\\(", "\"\"\"", "#\"", "\"#", "/*", "*/",
            "#if DEBUG\n", "#else\n", "#endif\n", "var x: [A]? = []\n", "typealias A = V.A\n", "@Attribute(.unique) ",
            "enum P: SchemaMigrationPlan { static var schemas: [any VersionedSchema.Type] { [V.self] }",
            ".custom(fromVersion: V.self, toVersion: W.self, willMigrate: { c in", "#Unique<A>([\\.x])", "/x/",
            // The next file: a type's extension, stage or model may be declared in another file than the type.
            "\u{0C}", "extension P { static let s = MigrationStage", "extension V { @Model final class A { ",
            "static var stages: [MigrationStage] { [s] }", "@NSManaged var x: Int\n",
            "class N: NSManagedObject {", "extension N {",
            // Shapes that once cost more than linear time: lists built from lists, unclosed generics, `#if`s and
            // calls, chains of `.self`, long dotted names, many stage constants, line breaks Swift also accepts.
            "enum S: VersionedSchema { static var models: [any PersistentModel.Type] { S.models + V.models } }",
            "func f<", "<", ".self", "Schema(versionedSchema", "ModelContainer(for: A", "extension V.A.", ".A",
            "#if A\n", "static let s = MigrationStage.lightweight(fromVersion: V.self, toVersion: W.self)\n",
            "s, ", "\r", "// c\r", "\r\n",
        ]
        var out = ""
        for _ in 0..<recipe.number(200_000) where !recipe.exhausted || out.utf8.count < 2_000_000 {
            out += pieces[recipe.byte() % pieces.count]
            if out.utf8.count > 2_000_000 { break }
        }
        return Array(out.utf8)
    }
}
