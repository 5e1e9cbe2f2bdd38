import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintCompiled

/// What a Core Data SQLite store says about the model that wrote it: `Z_METADATA`'s `Z_PLIST`, a property list
/// with the entity hashes (`NSStoreModelVersionHashes`), version identifiers and the framework version.
package struct StoreMetadata: Sendable, Equatable {
    package static func == (a: StoreMetadata, b: StoreMetadata) -> Bool {
        a.entityHashes == b.entityHashes && a.versionIdentifiers == b.versionIdentifiers
            && a.frameworkVersion == b.frameworkVersion
            && a.storeType == b.storeType && a.uuid == b.uuid && a.checksum == b.checksum && a.usedWAL == b.usedWAL
            && (a.cachedModel == nil) == (b.cachedModel == nil)
    }

    package var entityHashes: [String: [UInt8]]
    package var versionIdentifiers: [String]
    package var frameworkVersion: Int?
    package var storeType: String?
    package var uuid: String?
    /// `NSStoreModelVersionChecksumKey` (recent systems): the writing model's versionChecksum.
    package var checksum: String?
    package var usedWAL: Bool
    /// The model that wrote the store, as Core Data cached it in `Z_MODELCACHE` (raw DEFLATE of an archived
    /// model), when the store has one and it reads.
    package var cachedModel: Model? = nil
    /// The store has a `Z_MODELCACHE` that could not be read as a model: why (it does not inflate, is not a keyed
    /// archive, or is not a model). Core Data, whose reader this is not, may still open the store with it.
    package var unreadableModelCache: String? = nil

    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    package static func read(path: String) throws -> StoreMetadata {
        let file: SQLiteFile
        do { file = try SQLiteFile(path: path) } catch { throw ReadError(description: "\(path): \(error)") }
        return try read(file, path: path)
    }

    package static func read(_ file: SQLiteFile, path: String) throws -> StoreMetadata {
        let table: (columns: [String], rows: [SQLiteFile.Row])?
        do { table = try file.table(named: "Z_METADATA") } catch { throw ReadError(description: "\(path): \(error)") }
        guard let table else {
            throw ReadError(
                description: "\(path) is a SQLite database but not a Core Data store (it has no Z_METADATA table)")
        }
        guard let column = table.columns.firstIndex(where: { $0.caseInsensitiveCompare("Z_PLIST") == .orderedSame })
        else {
            throw ReadError(description: "\(path): Z_METADATA has no Z_PLIST column")
        }
        guard let row = table.rows.last, row.values.count > column, case .blob(let bytes) = row.values[column] else {
            throw ReadError(description: "\(path): Z_METADATA holds no metadata")
        }
        guard let plist = try? PropertyList.parse(Data(bytes)) as? [String: Any] else {
            throw ReadError(description: "\(path): Z_METADATA's Z_PLIST is not a property list")
        }
        let hashes = (plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:]).compactMapValues {
            ($0 as? Data).map { [UInt8]($0) }
        }
        guard !hashes.isEmpty else { throw ReadError(description: "\(path): its metadata records no entity hashes") }
        let uuidColumn = table.columns.firstIndex { $0.caseInsensitiveCompare("Z_UUID") == .orderedSame }
        var uuid: String?
        if let uuidColumn, row.values.count > uuidColumn, case .text(let text) = row.values[uuidColumn] { uuid = text }
        return StoreMetadata(
            entityHashes: hashes,
            versionIdentifiers: (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).compactMap(Self.identifier),
            frameworkVersion: plist["NSPersistenceFrameworkVersion"] as? Int
                ?? (plist["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue,
            storeType: plist["NSStoreType"] as? String, uuid: uuid ?? plist["NSStoreUUID"] as? String,
            checksum: plist["NSStoreModelVersionChecksumKey"] as? String, usedWAL: file.usedWAL,
            cachedModel: nil
        )
        .withModelCache(Self.modelCache(file, path: path))
    }

    private func withModelCache(_ cache: Result<Model, ModelCacheFailure>?) -> StoreMetadata {
        var copy = self
        switch cache {
        case .success(let model)?: copy.cachedModel = model
        case .failure(let failure)?: copy.unreadableModelCache = failure.description
        case nil: break
        }
        return copy
    }

    /// A version identifier as text: Xcode writes strings; a number is printed, anything else (a container,
    /// which could be a shared graph that printing would expand) is left out.
    private static func identifier(_ value: Any) -> String? {
        switch value {
        case let text as String: return text
        case let number as Int: return String(number)
        case let number as Double: return String(number)
        default: return nil
        }
    }

    /// How far a cached model may inflate: real caches inflate 1.4-1.8x (every store in the corpus), DEFLATE can
    /// reach 1,032x, so a few kilobytes of store could otherwise ask for tens of megabytes.
    package static func cacheLimit(_ compressed: Int) -> Int {
        min(CompiledModelReader.archiveLimit, max(1 << 20, compressed * 32))
    }

    /// `Z_MODELCACHE.Z_CONTENT`: inflated and read as a compiled model; nil when absent or unreadable (the cache
    /// is an extra, never a reason to refuse the store).
    package static func cachedModel(_ file: SQLiteFile, path: String) -> Model? {
        try? modelCache(file, path: path)?.get()
    }

    /// Why a store's cached model could not be read.
    package struct ModelCacheFailure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The cached model: nil when the store has no `Z_MODELCACHE` content, else the model or why it did not read.
    static func modelCache(_ file: SQLiteFile, path: String) -> Result<Model, ModelCacheFailure>? {
        guard let table = try? file.table(named: "Z_MODELCACHE"), let row = table.rows.first,
            let column = table.columns.firstIndex(where: { $0.caseInsensitiveCompare("Z_CONTENT") == .orderedSame })
                ?? (table.columns.isEmpty ? 0 : nil),
            row.values.count > column, case .blob(let compressed) = row.values[column], !compressed.isEmpty
        else { return nil }
        let bytes: [UInt8]
        do { bytes = try Inflate.decompress(compressed, limit: cacheLimit(compressed.count)) } catch {
            return .failure(ModelCacheFailure(description: "its \(compressed.count) bytes do not inflate (\(error))"))
        }
        let archive: KeyedArchive
        do { archive = try KeyedArchive(bytes: bytes) } catch {
            return .failure(ModelCacheFailure(description: "it inflates, but not to a keyed archive (\(error))"))
        }
        do {
            return .success(try CompiledModelReader.model(from: archive, displayPath: path + " (Z_MODELCACHE)"))
        } catch {
            return .failure(ModelCacheFailure(description: "its archive is not a model modellint reads (\(error))"))
        }
    }

    /// The versions whose entity hashes equal the store's (exactly the versions Core Data would open it with).
    package func matchingVersions(_ versions: [VersionRef]) -> [VersionRef] {
        versions.filter { $0.model.versionHashes.entities == entityHashes }
    }

    /// A store written by a model the app merged from this version and other models
    /// (`NSManagedObjectModel.mergedModel(from:)`): every entity of one version is in the store with that
    /// version's hash, and the store has more. The version (the one covering most entities), and the store's other
    /// entities; nil when no version is wholly in the store.
    package func mergedFrom(_ versions: [VersionRef]) -> (version: VersionRef, others: [String])? {
        let covering = versions.filter { version in
            let hashes = version.model.versionHashes.entities
            return !hashes.isEmpty && hashes.count < entityHashes.count
                && hashes.allSatisfy { entityHashes[$0.key] == $0.value }
        }
        guard
            let best = covering.enumerated().max(by: {
                ($0.element.model.versionHashes.entities.count, $0.offset) < (
                    $1.element.model.versionHashes.entities.count, $1.offset
                )
            })?.element
        else { return nil }
        let own = best.model.versionHashes.entities
        return (best, entityHashes.keys.filter { own[$0] == nil }.sorted(by: CoreDataHash.precedes))
    }

    /// The version closest to the store (fewest entities that differ; the newest among equals), and those entities.
    package func nearest(_ versions: [VersionRef]) -> (version: VersionRef, differing: [String])? {
        let scored = versions.map { version -> (VersionRef, [String]) in
            let hashes = version.model.versionHashes.entities
            let names = Set(hashes.keys).union(entityHashes.keys).sorted(by: CoreDataHash.precedes)
            return (version, names.filter { hashes[$0] != entityHashes[$0] })
        }
        guard
            let best = scored.enumerated().min(by: {
                ($0.element.1.count, -$0.offset) < ($1.element.1.count, -$1.offset)
            })?.element
        else { return nil }
        return (best.0, best.1)
    }
    package init(
        entityHashes: [String: [UInt8]], versionIdentifiers: [String], frameworkVersion: Int? = nil,
        storeType: String? = nil, uuid: String? = nil, checksum: String? = nil, usedWAL: Bool, cachedModel: Model? = nil
    ) {
        self.entityHashes = entityHashes
        self.versionIdentifiers = versionIdentifiers
        self.frameworkVersion = frameworkVersion
        self.storeType = storeType
        self.uuid = uuid
        self.checksum = checksum
        self.usedWAL = usedWAL
        self.cachedModel = cachedModel
    }
}
