import ModelLintModel

/// What a build produced from a bundle: a compiled `.momd` (its `VersionInfo.plist`, one `.mom` per version) and
/// the compiled mapping models (`.cdm`) beside it. Rules about what ships judge this against the source bundle;
/// they never read files (CompiledModelReader does, and the rule examples build one from XML).
package struct CompiledModel: Sendable {
    /// The `.momd` folder's path as displayed.
    package var path: String
    /// `NSManagedObjectModel_CurrentVersionName`.
    package var currentVersion: String?
    package var versions: [CompiledVersion]
    package var mappings: [CompiledMapping]
    /// A bare `.mom` (an unversioned model, one version, no VersionInfo.plist): its version is named by the
    /// source version it matches, not by its file name.
    package var isBareModel = false

    package init(path: String, currentVersion: String?, versions: [CompiledVersion], mappings: [CompiledMapping] = []) {
        self.path = path
        self.currentVersion = currentVersion
        self.versions = versions
        self.mappings = mappings
    }
}

package struct CompiledVersion: Sendable {
    package var name: String
    /// The `.mom` file's path as displayed (or the `.momd`'s, for a version only `VersionInfo.plist` names).
    package var path: String
    /// The model read back from the `.mom`: names, flags, renaming identifiers; nil when there is no `.mom` or
    /// it could not be read (`problem` says why).
    package var model: Model?
    package var problem: String?
    /// The entity hashes Xcode recorded in `VersionInfo.plist` for this version, when it did.
    package var recordedHashes: [String: [UInt8]]?
    /// The versionChecksum Xcode recorded (`NSManagedObjectModel_VersionChecksums`), when it did.
    package var recordedChecksum: String?

    package init(
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
    package var hasFile = true

    /// The entity hashes this version was compiled with: Core Data loads a store's source model from the `.mom`,
    /// so its own hashes; for a version with no readable `.mom`, Xcode's record.
    package var hashes: [String: [UInt8]]? { model?.versionHashes.entities ?? recordedHashes }

    /// When the `.mom` and `VersionInfo.plist` disagree about this version: the two sets of hashes.
    package var recordDisagreement: (file: [String: [UInt8]], recorded: [String: [UInt8]])? {
        guard let file = model?.versionHashes.entities, let recorded = recordedHashes, file != recorded else {
            return nil
        }
        return (file, recorded)
    }
}

/// A compiled mapping model: for each entity mapping, the entity hashes Core Data picks it by.
package struct CompiledMapping: Sendable {
    /// The versions whose entity hashes every entity mapping's source (and destination) side matches: the pairs
    /// Core Data would use it for. A side no entity mapping names matches every version.
    package func matchingVersions(_ versions: [VersionRef]) -> (sources: [String], destinations: [String]) {
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

    package struct EntityMapping: Sendable, Equatable {
        package var name: String
        package var source: (entity: String, hash: [UInt8])?
        package var destination: (entity: String, hash: [UInt8])?

        package init(
            name: String, source: (entity: String, hash: [UInt8])?, destination: (entity: String, hash: [UInt8])?
        ) {
            self.name = name
            self.source = source
            self.destination = destination
        }

        package static func == (a: EntityMapping, b: EntityMapping) -> Bool {
            a.name == b.name && a.source?.entity == b.source?.entity && a.source?.hash == b.source?.hash
                && a.destination?.entity == b.destination?.entity && a.destination?.hash == b.destination?.hash
        }
    }

    /// The file name without `.cdm`.
    package var name: String
    package var path: String
    package var entityMappings: [EntityMapping]
    package var problem: String?

    package init(name: String, path: String, entityMappings: [EntityMapping], problem: String? = nil) {
        self.name = name
        self.path = path
        self.entityMappings = entityMappings
        self.problem = problem
    }
}
