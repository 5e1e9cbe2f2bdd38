import ModelLintSupport
import ModelLintModel

/// What a lock file records of one shipped version (docs/digests.md says what is in each part, and why).
/// Format 2: Core Data's own entity version hashes and the model's checksum (a change means stores written by
/// the version no longer match it: exactly what Core Data sees), and the content digest (everything but tooling
/// metadata: a change Core Data cannot see that still changes behaviour). Format 1 records carry a schema digest
/// of modellint's own design instead of the hashes; they are still verified, never written.
package struct VersionDigest: Equatable, Sendable {
    /// Entity name -> base64 version hash (format 2).
    package var entityHashes: [String: String]?
    /// The model's versionChecksum (format 2).
    package var checksum: String?
    /// The format-1 schema digest, as read from an old lock file.
    package var legacySchema: String?
    package var content: String
    /// Content digest per entity (16 hex digits), so a changed version can name what changed.
    package var entityContent: [String: String]

    package var isLegacy: Bool { entityHashes == nil }

    package init(
        entityHashes: [String: String]?, checksum: String?, legacySchema: String?, content: String,
        entityContent: [String: String]
    ) {
        self.entityHashes = entityHashes
        self.checksum = checksum
        self.legacySchema = legacySchema
        self.content = content
        self.entityContent = entityContent
    }

    /// A format-2 record of the model as it is. `memo`: the entities already fingerprinted in this run (a
    /// bundle's versions repeat them); the record is the same with or without it.
    package init(model: Model, memo: FingerprintMemo? = nil) {
        let hashes = model.versionHashes
        var byName: [String: String] = [:]
        for name in hashes.orderedNames { byName[name] = hashes.base64(name) }
        self.init(
            entityHashes: byName, checksum: hashes.versionChecksum, legacySchema: nil,
            content: "sha256:" + SHA256.hex(Fingerprint.content(model, formatOne: false, memo: memo)),
            entityContent: Self.entityContent(model, formatOne: false, memo: memo))
    }

    /// The format-1 record the model would have had (to verify an old lock file against).
    package static func legacy(model: Model, memo: FingerprintMemo? = nil) -> VersionDigest {
        VersionDigest(
            entityHashes: nil, checksum: nil, legacySchema: Fingerprint.legacySchemaDigest(model),
            content: "sha256:" + SHA256.hex(Fingerprint.content(model, formatOne: true, memo: memo)),
            entityContent: entityContent(model, formatOne: true, memo: memo))
    }

    package static func entityContent(
        _ model: Model, formatOne: Bool, memo: FingerprintMemo? = nil
    ) -> [String: String] {
        var perEntity: [String: String] = [:]
        for entity in model.entities where perEntity[entity.name] == nil {
            perEntity[entity.name] =
                memo?.entityContent(entity, formatOne: formatOne).digest
                ?? String(SHA256.hex(Fingerprint.entityContent(entity, formatOne: formatOne)).prefix(16))
        }
        return perEntity
    }

    /// How the model as it is compares with this record: schema (what Core Data matches stores by), content,
    /// or neither. A format-1 record is compared with format-1 digests of the model.
    package func compare(
        with model: Model, memo: FingerprintMemo? = nil
    ) -> (schemaChanged: Bool, contentChanged: Bool, changedEntities: [String]) {
        if let recorded = entityHashes {
            let now = VersionDigest(model: model, memo: memo)
            let hashesChanged = now.entityHashes != recorded
            let changed =
                hashesChanged
                ? Set(recorded.keys).union(now.entityHashes!.keys).filter { recorded[$0] != now.entityHashes![$0] }
                    .sorted()
                : now.changedEntities(comparedTo: self)
            return (hashesChanged, now.content != content, changed)
        }
        let now = VersionDigest.legacy(model: model, memo: memo)
        return (now.legacySchema != legacySchema, now.content != content, now.changedEntities(comparedTo: self))
    }

    /// Entities added, removed or changed between two records' per-entity content digests.
    package func changedEntities(comparedTo other: VersionDigest) -> [String] {
        Set(entityContent.keys).union(other.entityContent.keys).filter { entityContent[$0] != other.entityContent[$0] }
            .sorted()
    }
}
