import Foundation

/// Entities already built while reading one bundle, by the hash of their source text. A bundle's versions
/// repeat most entities byte for byte (WooCommerce: 6,557 of 6,709 from one version to the next); a repeat
/// is moved into place (same text, same layout: only its first line and column differ) instead of built again.
/// Versions are read in parallel, so the cache is locked; which version fills an entry first makes no difference.
final class EntitySourceCache: @unchecked Sendable {
    struct Entry {
        var entity: Entity
        /// Unknown XML found inside the entity.
        var unknownXML: [UnknownXML]
        /// Where the entity's `<` is in the file it was built from.
        var line: Int
        var column: Int
    }

    private var entries: [Int: Entry] = [:]
    private let lock = NSLock()

    func entry(forSourceHash hash: Int) -> Entry? {
        lock.lock()
        defer { lock.unlock() }
        return entries[hash]
    }

    func insert(_ entry: Entry, forSourceHash hash: Int) {
        lock.lock()
        defer { lock.unlock() }
        if entries[hash] == nil { entries[hash] = entry }
    }
}

extension EntitySourceCache.Entry {
    /// The cached entity as it stands in `file` with its `<` at `line`:`column`. Equal text means equal
    /// relative positions: every line moves by the same amount, and columns move only on the first line.
    func placed(in file: String, line: Int, column: Int) -> Entity {
        entity.mapLocations { move($0, to: file, line: line, column: column) }
    }

    /// The unknown XML inside the cached entity, moved the same way.
    func placedUnknownXML(in file: String, line: Int, column: Int) -> [UnknownXML] {
        unknownXML.map { item in
            var item = item
            item.location = move(item.location, to: file, line: line, column: column)
            return item
        }
    }

    private func move(_ location: SourceLocation, to file: String, line: Int, column: Int) -> SourceLocation {
        guard let old = location.line else { return SourceLocation(file: file, line: nil, column: location.column) }
        let moved = old == self.line ? location.column.map { $0 - self.column + column } : location.column
        return SourceLocation(file: file, line: old - self.line + line, column: moved)
    }
}
