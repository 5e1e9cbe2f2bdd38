import Foundation
import ModelLintSupport

/// Entities already built while reading one bundle, by the hash of their source text. A bundle's versions
/// repeat most entities byte for byte (WooCommerce: 6,557 of 6,709 from one version to the next); a repeat
/// is blanked before parsing and placed from the cache (same text, same layout: only its first line and
/// column differ) instead of parsed and built again. Versions are read in parallel, so the cache is locked;
/// which version fills an entry first makes no difference.
package final class EntitySourceCache: Sendable {
    package init() {}

    /// A class: every repeat's node and its version's placing hold the entry, and a value would count each of
    /// its references at every hand-over.
    package final class Entry: Sendable {
        /// The entity's source text: a hit must be these very bytes, not only the same hash.
        package let text: [UInt8]
        package let entity: Entity
        /// Unknown XML found inside the entity.
        package let unknownXML: [UnknownXML]
        /// Where the entity's `<` is in the file it was built from.
        package let line: Int
        package let column: Int

        package init(text: [UInt8], entity: Entity, unknownXML: [UnknownXML], line: Int, column: Int) {
            self.text = text
            self.entity = entity
            self.unknownXML = unknownXML
            self.line = line
            self.column = column
        }

        /// Whether this entry's text stands in `bytes` from `start`, byte for byte.
        package func stands(at start: Int, in bytes: [UInt8]) -> Bool {
            EntitySourceCache.text(text, standsAt: start, in: bytes)
        }
    }

    /// A property already built, by its source text: most properties of an entity that changed are unchanged.
    package final class PropertyEntry: Sendable {
        /// The property's source text, start tag to end (`/>` or its end tag).
        package let text: [UInt8]
        package let property: Property

        package init(text: [UInt8], property: Property) {
            self.text = text
            self.property = property
        }

        package func stands(at start: Int, in bytes: [UInt8]) -> Bool {
            EntitySourceCache.text(text, standsAt: start, in: bytes)
        }
    }

    private struct Entries {
        var byHash: [Int: Entry] = [:]
        /// The same entries (each with its text's hash) by the hash of their text up to its first `>`: a candidate
        /// in a file is found by its opening tag and compared whole, without looking for its `</entity>` first.
        var byOpening: [Int: [(hash: Int, entry: Entry)]] = [:]
        var propertiesByHash: [Int: PropertyEntry] = [:]
        var propertiesByOpening: [Int: [PropertyEntry]] = [:]
    }
    private let entries = Locked(Entries())
    /// Core Data hashes of the same bundle's versions: repeats share their field boxes, and so their hashes.
    package let hashes = CoreDataHashCache()

    /// The entry built from exactly `bytes[range]`, whose hash is `hash`: the lookup by whole text. The scan for
    /// repeats finds entries by their opening (`entry(at:in:)`); tests hold the two to the same answers.
    package func entry(forSourceHash hash: Int, text bytes: [UInt8], _ range: Range<Int>) -> Entry? {
        guard let found = entries.withLock({ $0.byHash[hash] }), found.text.count == range.count,
            found.stands(at: range.lowerBound, in: bytes)
        else { return nil }
        return found
    }

    package func insert(_ entry: Entry, forSourceHash hash: Int) {
        let opening = Self.openingHash(entry.text, at: 0)
        entries.withLock { entries in
            guard entries.byHash[hash] == nil else { return }
            entries.byHash[hash] = entry
            if let opening { entries.byOpening[opening, default: []].append((hash, entry)) }
        }
    }

    /// The entry whose whole text stands at `start` in `bytes`, and its text's hash. A cached text holds one
    /// `</entity>`, its last bytes (`canCache` refuses comments and CDATA, and `<` cannot stand in a value), so
    /// equal bytes end where the first `</entity>` after `start` does: the entry `entry(forSourceHash:)` finds
    /// for the text up to there.
    package func entry(at start: Int, in bytes: [UInt8]) -> (hash: Int, entry: Entry)? {
        guard let opening = Self.openingHash(bytes, at: start) else { return nil }
        let candidates = entries.withLock { $0.byOpening[opening] } ?? []
        return candidates.first { $0.entry.stands(at: start, in: bytes) }
    }

    package func insert(_ entry: PropertyEntry, forSourceHash hash: Int) {
        let opening = Self.openingHash(entry.text, at: 0)
        entries.withLock { entries in
            guard entries.propertiesByHash[hash] == nil else { return }
            entries.propertiesByHash[hash] = entry
            if let opening { entries.propertiesByOpening[opening, default: []].append(entry) }
        }
    }

    /// A cache holding these properties and no entity: a file read with it has every cached property of every
    /// entity blanked (the fuzzer and the tests compare that with the file read alone).
    package func propertiesOnly() -> EntitySourceCache {
        let copy = EntitySourceCache()
        let properties = entries.withLock { ($0.propertiesByHash, $0.propertiesByOpening) }
        copy.entries.withLock { entries in
            entries.propertiesByHash = properties.0
            entries.propertiesByOpening = properties.1
        }
        return copy
    }

    /// The property entry whose whole text stands at `start` in `bytes`.
    package func propertyEntry(at start: Int, in bytes: [UInt8]) -> PropertyEntry? {
        guard let opening = Self.openingHash(bytes, at: start) else { return nil }
        let candidates = entries.withLock { $0.propertiesByOpening[opening] } ?? []
        return candidates.first { $0.stands(at: start, in: bytes) }
    }

    /// Whether `text` stands in `bytes` from `start`, byte for byte.
    fileprivate static func text(_ text: [UInt8], standsAt start: Int, in bytes: [UInt8]) -> Bool {
        start >= 0 && start + text.count <= bytes.count
            && text.withUnsafeBytes { cached in
                bytes.withUnsafeBytes { memcmp(cached.baseAddress!, $0.baseAddress! + start, text.count) == 0 }
            }
    }

    /// The hash of `bytes` from `start` to the first `>`, if there is one.
    private static func openingHash(_ bytes: [UInt8], at start: Int) -> Int? {
        ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: start).map { textHash(bytes, start..<($0 + 1)) }
    }

    /// A contents file as the parser reads it, with the repeats blanked.
    package struct BlankedText {
        /// Each repeat's text, from `<entity` to the first `</entity>`, is `<entity/>`, its line breaks, and
        /// as many spaces as its last line held: every other element keeps its line and column, and the
        /// parser reads almost nothing of a repeat.
        package var bytes: [UInt8]
        /// Every blanked repeat in the order of the text: the offset of its `<` here, its cached entity and the
        /// hash of its text. Repeats that follow a repeat with only white space between are blanked without a
        /// placeholder of their own: the parser reads one `<entity/>` for the run (WooCommerce's versions hold runs
        /// of dozens), and the run's later repeats are the ones after it here, `runLength` of them (their offsets
        /// are still where their `<` stood: blanking keeps every line break and the length of every last line).
        /// Kept in order, not by offset: the tree builder meets the placeholders in the same order.
        package var repeats: [Repeat<(hash: Int, entry: Entry)>] = []
        /// Inside entities that are not repeats, the properties that are, blanked the same way (`<attribute/>` or
        /// `<relationship/>`, a run of them one placeholder).
        package var propertyRepeats: [Repeat<PropertyEntry>] = []
        /// The entities whose properties were blanked, by the offset of their `<` here: where their end tag ends
        /// here, and their text in the file (their hash and cached text are the file's, not the blanked text's).
        package var entitiesWithBlankedProperties: [Int: (end: Int, text: Range<Int>)] = [:]

        package init(bytes: [UInt8]) { self.bytes = bytes }

        /// Whether `bytes` differ from the file's.
        package var blanksAnything: Bool { !repeats.isEmpty || !propertyRepeats.isEmpty }
    }

    /// One blanked repeat: where its `<` stands in the blanked text, what the cache holds for it, and, for the
    /// first of a run (the one with a placeholder), how many repeats after it the run holds.
    package struct Repeat<Cached> {
        package let offset: Int
        package let cached: Cached
        package var runLength = 0
    }

    private static let startTag = Array("<entity".utf8)
    private static let endTag = Array("</entity>".utf8)
    private static let placeholder = Array("<entity/>".utf8)
    private static let attributeName = Array("attribute".utf8)
    private static let relationshipName = Array("relationship".utf8)
    private static let attributePlaceholder = Array("<attribute/>".utf8)
    private static let relationshipPlaceholder = Array("<relationship/>".utf8)

    /// Text that may be cached: nothing in it whose meaning depends on what surrounds it. A comment or CDATA
    /// section could begin or end inside it. (A namespace prefix needs a declaration from outside: files that
    /// declare namespaces are neither cached nor blanked, `declaresNamespaces`.)
    package static func canCache(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        ByteSearch.firstIndex(of: Array("<!".utf8), in: bytes, from: range.lowerBound, before: range.upperBound) == nil
            && ByteSearch.firstIndex(of: Array("-->".utf8), in: bytes, from: range.lowerBound, before: range.upperBound)
                == nil
            && ByteSearch.firstIndex(of: Array("]]>".utf8), in: bytes, from: range.lowerBound, before: range.upperBound)
                == nil
    }

    /// The key of a cached text, and an entity's content key (`Model.contentKeys`). The parser hashes an
    /// entity it built and the blanking scan hashes a candidate with this one function: a hit needs both to
    /// hash the same bytes the same way. Every file's text passes through here, so it reads 16 bytes a step
    /// (wyhash's mixing: a 64 x 64 -> 128-bit multiply, folded) where `Hasher` took 15 instructions a byte;
    /// the seed is drawn per process, as `Hasher`'s is, so no text can be written to collide on purpose.
    package static func textHash(_ bytes: [UInt8], _ range: Range<Int>) -> Int {
        @inline(__always) func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
            let (high, low) = a.multipliedFullWidth(by: b)
            return high ^ low
        }
        let count = range.count
        var state = seed ^ mix(UInt64(count) ^ 0xa076_1d64_78bd_642f, 0xe703_7ed1_a0b4_28db)
        bytes.withUnsafeBytes { buffer in
            guard count > 0, let base = buffer.baseAddress.map({ $0 + range.lowerBound }) else { return }
            var i = 0
            while i + 16 <= count {
                let a = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = base.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                state = mix(a ^ 0x8ebc_6af0_9c88_c6e3, b ^ state)
                i += 16
            }
            var tail: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &tail) {
                $0.copyMemory(from: UnsafeRawBufferPointer(start: base + i, count: count - i))
            }
            state = mix(tail.0 ^ 0x5899_65cc_7537_4cc3, tail.1 ^ state)
        }
        return Int(
            truncatingIfNeeded: mix(
                state ^ 0x1d8e_4e27_c47d_124f, UInt64(truncatingIfNeeded: count) ^ 0xa076_1d64_78bd_642f))
    }

    private static let seed: UInt64 = {
        var hasher = Hasher()
        hasher.combine(0)
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }()

    package static func declaresNamespaces(_ bytes: [UInt8]) -> Bool {
        ByteSearch.firstIndex(of: Array("xmlns".utf8), in: bytes) != nil
    }

    /// Finds every `<entity` whose text up to the first `</entity>` is a cached entity's whole text (`entry(at:in:)`),
    /// and blanks it. Equal text to a well-formed entity holding no comment, CDATA or prefix parses the same
    /// wherever it stands, so the parser is told only that an entity is there. Inside an entity that is not a
    /// repeat, every `<attribute` or `<relationship` whose text is a cached property's is blanked the same way.
    /// The caller has checked that the file declares no namespaces.
    /// `joiningRuns`: whether a run of repeats shares one placeholder (`Repeat.runLength`).
    package func blankingRepeats(in bytes: [UInt8], joiningRuns: Bool = true, blankingProperties: Bool = true)
        -> BlankedText
    {
        var blanked = BlankedText(bytes: [])
        let hasCarriageReturns = ByteSearch.firstIndex(of: 0x0D, in: bytes) != nil
        var copied = 0  // bytes before this offset are in `blanked.bytes`
        var offset = 0
        var runHead: Int?  // the index of the repeat that holds the placeholder of the run the last one belongs to
        /// Whether only white space stands between what was blanked last and `start`.
        func followsBlankedText(_ start: Int) -> Bool {
            copied > 0 && bytes[copied..<start].allSatisfy(XMLVocabulary.isSpace)
        }
        /// Blanks `bytes[start..<end]`: the placeholder (none when the repeat joins a run), its line breaks, and as
        /// many spaces as its last line held. Returns where the repeat's `<` stands in the blanked text.
        func blank(_ start: Int, _ end: Int, placeholder: [UInt8]?) -> Int {
            if blanked.bytes.isEmpty { blanked.bytes.reserveCapacity(bytes.count / 4) }
            blanked.bytes += bytes[copied..<start]
            let at = blanked.bytes.count
            if let placeholder { blanked.bytes += placeholder }
            var lastLineStart = start
            if hasCarriageReturns {
                for i in start..<end where bytes[i] == 0x0A || bytes[i] == 0x0D {
                    blanked.bytes.append(bytes[i])
                    lastLineStart = i + 1
                }
            } else {
                var newlines = 0
                ByteSearch.forEach(0x0A, in: bytes, from: start) { i in
                    guard i < end else { return false }
                    newlines += 1
                    lastLineStart = i + 1
                    return true
                }
                blanked.bytes += repeatElement(0x0A, count: newlines)
            }
            // On a one-line repeat the placeholder stands on that line too.
            let lastLineLength = end - lastLineStart - (lastLineStart == start ? placeholder?.count ?? 0 : 0)
            blanked.bytes += repeatElement(0x20, count: lastLineLength)
            copied = end
            return at
        }
        /// Blanks the repeat at `start..<end` into `list`: behind its own placeholder, or, when a run is open
        /// (`runHead`) and only white space stands between it and what was blanked last, as one more of that run.
        func blankRepeat<Cached>(
            _ start: Int, _ end: Int, placeholder: [UInt8], _ cached: Cached,
            into list: WritableKeyPath<BlankedText, [Repeat<Cached>]>, runHead: inout Int?
        ) {
            let joinsRun = joiningRuns && runHead != nil && followsBlankedText(start)
            let at = blank(start, end, placeholder: joinsRun ? nil : placeholder)
            if joinsRun, let runHead {
                blanked[keyPath: list][runHead].runLength += 1
            } else {
                runHead = blanked[keyPath: list].count
            }
            blanked[keyPath: list].append(Repeat(offset: at, cached: cached))
        }
        /// Blanks the cached properties of the entity at `start`, if its text up to the first `</entity>` holds no
        /// other entity, comment or CDATA (so that is where it ends, and every `<` in it is a tag's). Returns the
        /// offset after its end tag, where scanning goes on.
        func blankProperties(ofEntityAt start: Int) -> Int? {
            guard let close = ByteSearch.firstIndex(of: Self.endTag, in: bytes, from: start),
                ByteSearch.firstIndex(of: Self.startTag, in: bytes, from: start + Self.startTag.count, before: close)
                    == nil,
                Self.canCache(bytes, start..<close)
            else { return nil }
            let end = close + Self.endTag.count
            var entityAt: Int?  // where the entity's `<` stands in the blanked text, once a property is blanked
            var runHead: Int?  // the index of the repeat that holds the run's placeholder
            var tag = start + 1
            while let opening = ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: tag), opening < close {
                tag = opening + 1
                guard Self.namesProperty(bytes, at: tag), let entry = propertyEntry(at: opening, in: bytes),
                    opening + entry.text.count <= close
                else { continue }
                if entityAt == nil { entityAt = blanked.bytes.count + (start - copied) }
                let placeholder =
                    if case .attribute = entry.property { Self.attributePlaceholder } else {
                        Self.relationshipPlaceholder
                    }
                blankRepeat(
                    opening, opening + entry.text.count, placeholder: placeholder, entry, into: \.propertyRepeats,
                    runHead: &runHead)
                tag = copied
            }
            if let entityAt {
                blanked.entitiesWithBlankedProperties[entityAt] = (blanked.bytes.count + (end - copied), start..<end)
            }
            return end
        }
        while let start = ByteSearch.firstIndex(of: Self.startTag, in: bytes, from: offset) {
            offset = start + Self.startTag.count
            guard offset < bytes.count, XMLVocabulary.isSpace(bytes[offset]) else { continue }
            guard let (hash, entry) = entry(at: start, in: bytes) else {
                if blankingProperties { offset = blankProperties(ofEntityAt: start) ?? offset }
                continue
            }
            let end = start + entry.text.count
            blankRepeat(start, end, placeholder: Self.placeholder, (hash, entry), into: \.repeats, runHead: &runHead)
            offset = end
        }
        if blanked.repeats.isEmpty && blanked.propertyRepeats.isEmpty { return BlankedText(bytes: bytes) }
        blanked.bytes += bytes[copied...]
        return blanked
    }

    /// Whether `attribute` or `relationship` and a space begin at `offset`.
    private static func namesProperty(_ bytes: [UInt8], at offset: Int) -> Bool {
        func names(_ name: [UInt8]) -> Bool {
            let after = offset + name.count
            return after < bytes.count && XMLVocabulary.isSpace(bytes[after])
                && bytes.withUnsafeBufferPointer { b in
                    name.withUnsafeBufferPointer { memcmp(b.baseAddress! + offset, $0.baseAddress!, name.count) == 0 }
                }
        }
        guard offset < bytes.count else { return false }
        switch bytes[offset] {
        case UInt8(ascii: "a"): return names(attributeName)
        case UInt8(ascii: "r"): return names(relationshipName)
        default: return false
        }
    }
}

extension EntitySourceCache.Entry {
    /// The cached entity as it stands in `file` with its `<` at `line`:`column`. Equal text means equal
    /// relative positions: every line moves by the same amount, and columns move only on the first line.
    package func placed(in file: SourceFile, line: Int, column: Int) -> Entity {
        entity.mapLocations { move($0, to: file, line: line, column: column) }
    }

    /// The unknown XML inside the cached entity, moved the same way.
    package func placedUnknownXML(in file: SourceFile, line: Int, column: Int) -> [UnknownXML] {
        unknownXML.map { item in
            var item = item
            item.location = move(item.location, to: file, line: line, column: column)
            return item
        }
    }

    private func move(_ location: SourceLocation, to file: SourceFile, line: Int, column: Int) -> SourceLocation {
        guard let old = location.line else { return SourceLocation(file: file, line: nil, column: location.column) }
        let moved = old == self.line ? location.column.map { $0 - self.column + column } : location.column
        return SourceLocation(file: file, line: old - self.line + line, column: moved)
    }
}
