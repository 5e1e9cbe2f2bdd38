/// The two digests a lock file records per version (docs/digests.md says what is in each, and why).
public struct VersionDigest: Equatable, Sendable {
    /// Everything that feeds Core Data's version hashes (core-data-semantics.md §4): a change means stores
    /// written by this version no longer match it.
    public var schema: String
    /// Everything in the model except tooling metadata: a change Core Data cannot see, but that changes
    /// behaviour for existing data (defaults, delete rules, transformers, renaming identifiers, indexes, validation).
    public var content: String
    /// Content digest per entity, so a changed version can name what changed.
    public var entities: [String: String]

    public init(schema: String, content: String, entities: [String: String]) {
        self.schema = schema
        self.content = content
        self.entities = entities
    }

    public init(model: Model) {
        let hashInputs = Fingerprint.entityHashInputs(model)
        schema = "sha256:" + SHA256.hex(hashInputs.keys.sorted().map { hashInputs[$0]! }.joined(separator: "\n"))
        content = "sha256:" + SHA256.hex(Fingerprint.content(model))
        var perEntity: [String: String] = [:]
        for entity in model.entities where perEntity[entity.name] == nil {
            perEntity[entity.name] = String(SHA256.hex(Fingerprint.entityContent(entity)).prefix(16))
        }
        entities = perEntity
    }

    /// Entities added, removed or changed between two digests' per-entity records.
    public func changedEntities(comparedTo other: VersionDigest) -> [String] {
        Set(entities.keys).union(other.entities.keys).filter { entities[$0] != other.entities[$0] }.sorted()
    }
}
