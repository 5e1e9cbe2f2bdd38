import ModelLintSupport
import ModelLintModel
import ModelLintDiff

/// What counts as shipped for one bundle, and where that knowledge came from (docs/rules/README.md "Shipped history").
package struct ShippedHistory: Sendable {
    package enum Source: Sendable, Equatable {
        /// `modellint.lock` at this path.
        case lockFile(String)
        /// `--released REF`: every version present at REF.
        case released(String)
        /// `--against REF`: the versions that at REF come before REF's current one.
        case against(String)

        package var label: String {
            switch self {
            case .lockFile(let path): return path
            case .released(let ref): return "release \(ref)"
            case .against(let ref): return ref
            }
        }
    }

    package struct Version: Sendable {
        package var name: String
        /// The model as it shipped, when read from git (lock files keep digests only).
        package var model: Model?
        /// Nothing to compare: read from git and byte for byte the work tree's version, or recorded in a lock file
        /// with exactly the digests the work tree's version has (`LockedVersionCheck`).
        package var identicalInWorkTree = false
        private let recorded: RecordedDigest

        /// What a lock file records; for a version read from git, worked out from its model on first use (most
        /// are never asked: they are byte for byte the work tree's).
        package var digest: VersionDigest { recorded.value }

        package init(name: String, digest: VersionDigest, model: Model? = nil) {
            self.name = name
            self.model = model
            self.recorded = RecordedDigest(digest)
        }

        package init(name: String, model: Model) {
            self.name = name
            self.model = model
            self.recorded = RecordedDigest(model: model)
        }
    }

    /// A digest given, or made from a model once, when first asked for.
    final class RecordedDigest: Sendable {
        private let model: Model?
        private let made: Locked<VersionDigest?>

        init(_ digest: VersionDigest) {
            model = nil
            made = Locked(digest)
        }

        init(model: Model) {
            self.model = model
            made = Locked(nil)
        }

        var value: VersionDigest {
            if let known = made.withLock({ $0 }) { return known }
            let digest = VersionDigest(model: model!)
            made.withLock { $0 = digest }
            return digest
        }
    }

    package var source: Source
    package var versions: [Version]

    package init(source: Source, versions: [Version]) {
        self.source = source
        self.versions = versions
    }
}

/// One shipped version compared with the work tree: the typed change history rules judge.
package struct ShippedVersionComparison: Sendable {
    package enum Status: Sendable, Equatable { case unchanged, deleted, unreadable, schemaChanged, contentChanged }
    package var name: String
    package var source: ShippedHistory.Source
    package var status: Status
    /// What changed, in words: `Thing.payload: transformer` (from git) or entity names (from a lock file).
    package var changes: [String]
    package var location: SourceLocation

    /// Compares every shipped version with the bundle as it is now.
    package static func compare(_ history: ShippedHistory, with bundle: ModelBundle) -> [ShippedVersionComparison] {
        let memo = FingerprintMemo()
        return history.versions.map { shipped in
            guard let now = bundle.versions.first(where: { $0.name.isExactly(shipped.name) }) else {
                return ShippedVersionComparison(
                    name: shipped.name, source: history.source, status: .deleted, changes: [],
                    location: SourceLocation(file: bundle.path + "/" + shipped.name + ".xcdatamodel"))
            }
            guard let model = now.model else {
                return ShippedVersionComparison(
                    name: shipped.name, source: history.source, status: .unreadable, changes: [],
                    location: SourceLocation(file: now.contentsPath))
            }
            if shipped.identicalInWorkTree {
                return ShippedVersionComparison(
                    name: shipped.name, source: history.source, status: .unchanged, changes: [],
                    location: model.location)
            }
            // Core Data's view first: the entity hashes (or, for a format-1 record, its schema digest); then content.
            let verdict = shipped.digest.compare(with: model, memo: memo)
            let status: Status =
                verdict.schemaChanged ? .schemaChanged : verdict.contentChanged ? .contentChanged : .unchanged
            var changes: [String] = []
            // The finding points at the first element that changed, not at the `<model>` line.
            var location: SourceLocation?
            if status != .unchanged {
                if let old = shipped.model {
                    // With the shipped model at hand (git), what changed and why, entity by entity.
                    let entries = describe(
                        ModelDiff(
                            from: VersionRef(name: shipped.name, contentsPath: "", model: old),
                            to: VersionRef(name: shipped.name, contentsPath: now.contentsPath, model: model),
                            isAdjacent: true))
                    if status == .schemaChanged {
                        let hashChanged = Set(verdict.changedEntities)
                        let hashed = entries.filter { hashChanged.contains($0.entity) }
                        changes = hashed.map(\.text)
                        location = hashed.lazy.compactMap(\.location).first
                        let described = Set(entries.map(\.entity))
                        changes += verdict.changedEntities.filter { !described.contains($0) }.map {
                            "\($0): version hash changed"
                        }
                    } else {
                        changes = entries.map(\.text)
                        location = entries.lazy.compactMap(\.location).first
                    }
                }
                if changes.isEmpty {
                    changes = verdict.changedEntities.map {
                        status == .schemaChanged && !shipped.digest.isLegacy
                            ? "\($0): version hash changed" : "entity \($0)"
                    }
                }
            }
            if location == nil, status != .unchanged {
                // From a lock file: the first changed entity that is still there.
                location =
                    verdict.changedEntities.lazy.compactMap { name in
                        model.entities.first { $0.name == name }?.location
                    }.first
            }
            return ShippedVersionComparison(
                name: shipped.name, source: history.source, status: status, changes: changes,
                location: location ?? model.location)
        }
    }

    /// Each change, with the entity it is about (the newer name; a removed entity's own) and where it is now (the
    /// element changed or added; a removal's entity, or nil when the entity went too).
    package static func describe(_ diff: ModelDiff) -> [(entity: String, text: String, location: SourceLocation?)] {
        var out: [(String, String, SourceLocation?)] = []
        out += diff.addedEntities.map { ($0.name, "\($0.name) added", $0.location) }
        out += diff.removedEntities.map { ($0.name, "\($0.name) removed", nil) }
        for pair in diff.matchedEntities {
            let name = pair.new.name
            let entity = pair.new.location
            out += pair.facets.map { (name, "\(name): \(label($0.rawValue))", entity) }
            out += pair.addedProperties.map { (name, "\(name).\($0.name) added", $0.location) }
            out += pair.removedProperties.map { (name, "\(name).\($0.name) removed", entity) }
            out += pair.becameTransient.map { (name, "\(name).\($0.new.name) made transient", $0.new.location) }
            out += pair.kindChanged.map { (name, "\(name).\($0.new.name) changed kind", $0.new.location) }
            for property in pair.matchedProperties where !property.facets.isEmpty {
                out.append(
                    (
                        name,
                        "\(name).\(property.new.name): "
                            + property.facets.map { label($0.rawValue) }.joined(separator: ", "),
                        property.new.location
                    ))
            }
        }
        return out
    }

    /// `defaultValue` -> `default value`.
    package static func label(_ facet: String) -> String {
        var out = ""
        for ch in facet {
            if ch.isUppercase { out += " " + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }
    package init(
        name: String, source: ShippedHistory.Source, status: Status, changes: [String], location: SourceLocation
    ) {
        self.name = name
        self.source = source
        self.status = status
        self.changes = changes
        self.location = location
    }
}
