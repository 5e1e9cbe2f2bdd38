import ModelLintModel

/// What a build produced from a bundle: a compiled `.momd` (its `VersionInfo.plist`, one `.mom` per version) and
/// the compiled mapping models (`.cdm`) beside it. Rules about what ships judge this against the source bundle;
/// they never read files (CompiledModelReader does, and the rule examples build one from XML).
public struct CompiledModel: Sendable {
    /// The `.momd` folder's path as displayed.
    public var path: String
    /// `NSManagedObjectModel_CurrentVersionName`.
    public var currentVersion: String?
    public var versions: [CompiledVersion]
    public var mappings: [CompiledMapping]
    /// A bare `.mom` (an unversioned model, one version, no VersionInfo.plist): its version is named by the
    /// source version it matches, not by its file name.
    public var isBareModel = false

    public init(path: String, currentVersion: String?, versions: [CompiledVersion], mappings: [CompiledMapping] = []) {
        self.path = path
        self.currentVersion = currentVersion
        self.versions = versions
        self.mappings = mappings
    }
}

public struct CompiledVersion: Sendable {
    public var name: String
    /// The `.mom` file's path as displayed (or the `.momd`'s, for a version only `VersionInfo.plist` names).
    public var path: String
    /// The model read back from the `.mom`: names, flags, renaming identifiers; nil when there is no `.mom` or
    /// it could not be read (`problem` says why).
    public var model: Model?
    public var problem: String?
    /// The entity hashes Xcode recorded in `VersionInfo.plist` for this version, when it did.
    public var recordedHashes: [String: [UInt8]]?
    /// The versionChecksum Xcode recorded (`NSManagedObjectModel_VersionChecksums`), when it did.
    public var recordedChecksum: String?

    public init(
        name: String, path: String, model: Model?, problem: String? = nil,
        recordedHashes: [String: [UInt8]]? = nil, recordedChecksum: String? = nil
    ) {
        self.name = name
        self.path = path
        self.model = model
        self.problem = problem
        self.recordedHashes = recordedHashes
        self.recordedChecksum = recordedChecksum
    }

    /// Whether the build holds this version's `.mom` (a version only `VersionInfo.plist` names has none).
    public var hasFile = true

    /// The entity hashes this version was compiled with: Core Data loads a store's source model from the `.mom`,
    /// so its own hashes; for a version with no readable `.mom`, Xcode's record.
    public var hashes: [String: [UInt8]]? { model?.versionHashes.entities ?? recordedHashes }

    /// When the `.mom` and `VersionInfo.plist` disagree about this version: the two sets of hashes.
    public var recordDisagreement: (file: [String: [UInt8]], recorded: [String: [UInt8]])? {
        guard let file = model?.versionHashes.entities, let recorded = recordedHashes, file != recorded else {
            return nil
        }
        return (file, recorded)
    }
}

/// A compiled mapping model: for each entity mapping, the entity hashes Core Data picks it by.
public struct CompiledMapping: Sendable {
    /// The versions whose entity hashes every entity mapping's source (and destination) side matches: the pairs
    /// Core Data would use it for. A side no entity mapping names matches every version.
    public func matchingVersions(_ versions: [VersionRef]) -> (sources: [String], destinations: [String]) {
        func matching(_ side: KeyPath<EntityMapping, (entity: String, hash: [UInt8])?>) -> [String] {
            let wanted = entityMappings.compactMap { $0[keyPath: side] }
            guard !wanted.isEmpty else { return versions.map(\.name) }
            return versions.filter { version in
                let hashes = version.model.versionHashes.entities
                return wanted.allSatisfy { hashes[$0.entity] == $0.hash }
            }.map(\.name)
        }
        return (matching(\.source), matching(\.destination))
    }

    public struct EntityMapping: Sendable, Equatable {
        public var name: String
        public var source: (entity: String, hash: [UInt8])?
        public var destination: (entity: String, hash: [UInt8])?

        public init(
            name: String, source: (entity: String, hash: [UInt8])?, destination: (entity: String, hash: [UInt8])?
        ) {
            self.name = name
            self.source = source
            self.destination = destination
        }

        public static func == (a: EntityMapping, b: EntityMapping) -> Bool {
            a.name == b.name && a.source?.entity == b.source?.entity && a.source?.hash == b.source?.hash
                && a.destination?.entity == b.destination?.entity && a.destination?.hash == b.destination?.hash
        }
    }

    /// The file name without `.cdm`.
    public var name: String
    public var path: String
    public var entityMappings: [EntityMapping]
    public var problem: String?

    public init(name: String, path: String, entityMappings: [EntityMapping], problem: String? = nil) {
        self.name = name
        self.path = path
        self.entityMappings = entityMappings
        self.problem = problem
    }
}
