import Foundation
import ModelLintSupport

/// A custom mapping model (`.xcmappingmodel`) and the pair of versions it maps.
package struct MappingModel: Equatable, Sendable {
    /// The file name without extension, as users know it: `Delta5ToDelta6`.
    package var name: String
    package var source: String
    package var destination: String
    /// How a finding names what covers its step ("the mapping model X" unless set: a SwiftData custom stage).
    package var coverage: String?

    /// Every version Core Data would accept as its source, and as its destination (its recorded hashes are subsets
    /// of theirs): it migrates any pair of them, not only `source` -> `destination`, the pair its paths name.
    package var sources: [String]
    package var destinations: [String]
    /// The source entities its linked entity mappings name (nil: it lists none, and is compared whole); its
    /// `xcmapping.xml` as reports name it.
    package var linkedSources: [String]?
    package var path: String?

    package init(name: String, source: String, destination: String, coverage: String? = nil) {
        self.name = name
        self.source = source
        self.destination = destination
        self.coverage = coverage
        sources = [source]
        destinations = [destination]
    }

    /// Whether Core Data picks it to migrate a store of `from` to `to`.
    package func covers(from: String, to: String) -> Bool {
        sources.contains(from) && destinations.contains(to)
    }

    /// The pairs it is picked for whose destination comes later in `names` (a line of versions), in source order.
    package func forwardPairs(along names: [String]) -> [(from: String, to: String)] {
        sources.flatMap { source -> [(from: String, to: String)] in
            guard let from = names.firstIndex(of: source) else { return [] }
            return destinations.filter { (names.firstIndex(of: $0) ?? -1) > from }.map { (source, $0) }
        }
    }

    /// What decided the pair: the models it embeds (Core Data's own test), else the editor's paths or the file name.
    package var evidence: Evidence = .modelPaths

    package enum Evidence: Equatable, Sendable {
        /// Both embedded models equal the two versions by Core Data's entity hashes; `cleared` names the hashed
        /// facts the snapshot does not record that the versions use (then compared with them cleared).
        case embeddedModels(cleared: [String])
        case modelPaths
        case fileName
    }

    /// What covers a step, as a finding says it: the mapping model, and how it was matched when that is not
    /// Core Data's own test (its embedded models equal the two versions by hash).
    package var covering: String {
        if let coverage { return coverage }
        switch evidence {
        case .embeddedModels(let cleared) where cleared.isEmpty:
            return "the mapping model \(name)"
        case .embeddedModels(let cleared):
            return
                "the mapping model \(name), whose embedded models equal these versions apart from \(cleared.joined(separator: " and ")), which they do not record"
        case .modelPaths:
            return
                "the mapping model \(name), matched by the versions its editor's paths name: it embeds no model modellint can read"
        case .fileName:
            return
                "the mapping model \(name), matched by its file name: it embeds no model modellint can read, and its paths name no version"
        }
    }
}

/// A mapping model whose embedded source or destination model equals no version of the bundle its paths name:
/// its compiled form's hashes match no store, so Core Data never uses it.
package struct UnmatchedMappingModel: Equatable, Sendable {
    package var name: String
    /// Its `xcmapping.xml`, as reports name it.
    package var path: String
    /// The versions its editor's paths name (the last component), whether or not they still exist.
    package var claimedSource: String?
    package var claimedDestination: String?
    /// Per side: the versions its embedded model equals (empty: none).
    package var sourceMatches: [String]
    package var destinationMatches: [String]
    /// Per unmatched side, how the embedded model differs from the version its path names (entity names), when
    /// that version exists.
    package var sourceDifferences: [String]?
    package var destinationDifferences: [String]?
}

/// A mapping model found for a bundle: its name (the file name without extension), its `xcmapping.xml` as
/// reports name it, and what that file holds.
package struct MappingModelSource: Sendable {
    package var name: String
    package var path: String
    package var file: MappingModelFile

    package init(name: String, path: String, file: MappingModelFile) {
        self.name = name
        self.path = path
        self.file = file
    }
}

/// One `xcmapping.xml`: the editor's memory of where its models came from, and the models it embeds.
package struct MappingModelFile: Sendable {
    package var sourcePath: String?
    package var destinationPath: String?
    /// The embedded models, when read from the file (nil from the result cache, which keeps their hashes).
    package var source: Model?
    package var destination: Model?
    /// What matching compares of each embedded model: all a run needs of it.
    package var sourceHashes: EmbeddedModelHashes?
    package var destinationHashes: EmbeddedModelHashes?
    /// The entity mappings Xcode compiles (`LinkedEntityMappings`): only their entities' hashes are compared. nil:
    /// the file lists none, and the embedded models are compared whole.
    package var linked: [LinkedEntityMapping]?

    /// The entities the linked mappings name on each side (nil: the file lists none).
    package var linkedSourceNames: [String]? { linked.map { $0.compactMap(\.source) } }
    package var linkedDestinationNames: [String]? { linked.map { $0.compactMap(\.destination) } }

    package init(
        sourcePath: String?, destinationPath: String?, source: Model? = nil, destination: Model? = nil,
        linked: [LinkedEntityMapping]? = nil
    ) {
        self.init(
            sourcePath: sourcePath, destinationPath: destinationPath,
            source: source.map { ($0, EmbeddedModelHashes($0)) },
            destination: destination.map { ($0, EmbeddedModelHashes($0)) }, linked: linked)
    }

    /// With each embedded model's hashes already worked out (a model is nil when its hashes were known already).
    init(
        sourcePath: String?, destinationPath: String?, source: (Model?, EmbeddedModelHashes)?,
        destination: (Model?, EmbeddedModelHashes)?, linked: [LinkedEntityMapping]?
    ) {
        self.sourcePath = sourcePath
        self.destinationPath = destinationPath
        self.source = source?.0
        self.destination = destination?.0
        sourceHashes = source?.1
        destinationHashes = destination?.1
        self.linked = linked
    }

    /// As the result cache keeps it: the paths and the embedded models' hashes.
    package var cached: JSONValue {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        return .object([
            ("sourcePath", optional(sourcePath)), ("destinationPath", optional(destinationPath)),
            ("source", sourceHashes?.cached ?? .null), ("destination", destinationHashes?.cached ?? .null),
            (
                "linked",
                linked.map { list in
                    .array(list.map { .array([optional($0.source), optional($0.destination)]) })
                } ?? .null
            ),
        ])
    }

    /// Read back from `cached`; nil when the entry is not as written.
    package init?(cached: JSONValue) {
        func optional(_ key: String) -> String?? {
            switch cached[key] {
            case .string(let text)?: return .some(text)
            case .null?: return .some(nil)
            default: return nil
            }
        }
        func hashes(_ key: String) -> EmbeddedModelHashes?? {
            switch cached[key] {
            case .null?: return .some(nil)
            case let value?: return EmbeddedModelHashes(cached: value).map { .some($0) }
            default: return nil
            }
        }
        func linkedMappings() -> [LinkedEntityMapping]?? {
            switch cached["linked"] {
            case .null?: return .some(nil)
            case .array(let items)?:
                var list: [LinkedEntityMapping] = []
                for item in items {
                    guard case .array(let sides) = item, sides.count == 2 else { return nil }
                    func side(_ value: JSONValue) -> String?? {
                        switch value {
                        case .string(let text): return .some(text)
                        case .null: return .some(nil)
                        default: return nil
                        }
                    }
                    guard let source = side(sides[0]), let destination = side(sides[1]) else { return nil }
                    list.append(LinkedEntityMapping(source: source, destination: destination))
                }
                return .some(list)
            default: return nil
            }
        }
        guard let sourcePath = optional("sourcePath"), let destinationPath = optional("destinationPath"),
            let source = hashes("source"), let destination = hashes("destination"), let linked = linkedMappings()
        else { return nil }
        self.sourcePath = sourcePath
        self.destinationPath = destinationPath
        sourceHashes = source
        destinationHashes = destination
        self.linked = linked
    }
}

/// What Core Data compares of a model embedded in a mapping model (its entities' version hashes), and what says
/// how a version differs from it (its properties' hashes).
package struct EmbeddedModelHashes: Equatable, Sendable {
    /// How many entities it has (two of one name count twice).
    package var entityCount: Int
    /// Entity name -> version hash.
    package var entities: [String: [UInt8]]
    /// Entity name -> stored property name -> version hash.
    package var properties: [String: [String: [UInt8]]]

    /// `cache`: the one the model was built with, whose property hashes its entity hashes already hold.
    package init(_ model: Model, cache: CoreDataHashCache? = nil) {
        entityCount = model.entities.count
        entities = model.versionHashes.entities
        var properties: [String: [String: [UInt8]]] = [:]
        for name in entities.keys {
            guard let entity = model.entity(named: name) else { continue }
            properties[name] = Self.propertyHashes(of: entity, cache: cache)
        }
        self.properties = properties
    }

    package var cached: JSONValue {
        func table(_ hashes: [String: [UInt8]]) -> JSONValue {
            .object(hashes.sorted { $0.key < $1.key }.map { ($0.key, .string(Hex.encode($0.value))) })
        }
        return .object([
            ("entityCount", .number(Double(entityCount))), ("entities", table(entities)),
            ("properties", .object(properties.sorted { $0.key < $1.key }.map { ($0.key, table($0.value)) })),
        ])
    }

    package init?(cached: JSONValue) {
        func table(_ value: JSONValue?) -> [String: [UInt8]]? {
            guard let members = value?.objectValue else { return nil }
            var table: [String: [UInt8]] = [:]
            for (name, hash) in members {
                guard let text = hash.stringValue, let bytes = Hex.decode(text), bytes.count == 32 else { return nil }
                table[name] = bytes
            }
            return table
        }
        guard let count = cached["entityCount"]?.intValue, let entities = table(cached["entities"]),
            let members = cached["properties"]?.objectValue
        else { return nil }
        var properties: [String: [String: [UInt8]]] = [:]
        for (name, value) in members {
            guard let hashes = table(value) else { return nil }
            properties[name] = hashes
        }
        entityCount = count
        self.entities = entities
        self.properties = properties
    }

    /// An entity's stored properties' version hashes, by name.
    static func propertyHashes(of entity: Entity, cache: CoreDataHashCache? = nil) -> [String: [UInt8]] {
        var hashes: [String: [UInt8]] = [:]
        for property in entity.properties where !property.isTransient {
            hashes[property.name] =
                cache?.propertyHash(property, declaredBy: entity.name)
                ?? CoreDataHash.hash(of: property, declaredBy: entity.name)
        }
        return hashes
    }

    /// Whether it has the entities `version` has, by name (Core Data matches no model with other entities).
    func hasEntityNames(of version: Model) -> Bool {
        entityCount == version.entities.count && Set(entities.keys) == Set(version.entityIndexByName.keys)
    }
}

/// Reads an `.xcmappingmodel` and decides which versions it maps, as Core Data does: by the models it embeds.
package enum MappingModelReader {
    /// Mapping models hold two embedded models of a few hundred kilobytes each; a larger file is only scanned
    /// for its paths.
    package static let embeddedModelsLimit = 64 << 20

    /// The paths and the embedded models of an `xcmapping.xml`. An embedded model that cannot be read leaves the
    /// paths to decide (the XML is never parsed, so its external DTD is never resolved).
    /// `memo`: the embedded models a run has read already, by their text (nil: none kept).
    package static func file(at xml: String, displayPath: String, memo: EmbeddedModelMemo? = nil) -> MappingModelFile {
        guard let bytes = try? FileReader.readBytes(xml, limit: embeddedModelsLimit) else {
            let paths = modelPaths(in: URL(fileURLWithPath: xml))
            return MappingModelFile(sourcePath: paths.source, destinationPath: paths.destination)
        }
        // The two models decoded and hashed side by side: alone, a big mapping model is one core's work.
        let embedded = concurrentMap(["sourcemodeldata", "destinationmodeldata"]) {
            name -> (Model?, EmbeddedModelHashes)? in
            guard let text = MappingModelSnapshot.embeddedText(name, in: bytes) else { return nil }
            func read() -> (Model, EmbeddedModelHashes)? {
                let cache = memo?.hashCache ?? CoreDataHashCache()
                return bytes.withUnsafeBufferPointer { Base64.decode(UnsafeBufferPointer(rebasing: $0[text])) }
                    .flatMap {
                        try? MappingModelSnapshot.model(archive: $0, displayPath: displayPath, hashCache: cache)
                    }
                    .map { ($0, EmbeddedModelHashes($0, cache: cache)) }
            }
            guard let memo else { return read().map { ($0.0, $0.1) } }
            return memo.hashes(of: bytes[text]) { read()?.1 }.map { (nil, $0) }
        }
        return MappingModelFile(
            sourcePath: value(of: "sourcemodelpath", in: bytes),
            destinationPath: value(of: "destinationmodelpath", in: bytes),
            source: embedded[0], destination: embedded[1], linked: LinkedEntityMappings.read(bytes))
    }

    package enum Match: Sendable {
        case maps(MappingModel)
        case unmatched(UnmatchedMappingModel)
    }

    /// The pair `file` maps among `versions`, as Core Data decides it: the versions its embedded models equal by
    /// entity hashes. Without embedded models, the editor's paths, then the file name. nil: it names no version
    /// of these (another bundle's mapping model).
    package static func match(_ file: MappingModelFile, name: String, path: String, versions: [VersionRef]) -> Match? {
        let names = versions.map(\.name)
        let claimedSource = file.sourcePath.flatMap(versionName)
        let claimedDestination = file.destinationPath.flatMap(versionName)
        guard let sourceModel = file.sourceHashes, let destinationModel = file.destinationHashes else {
            if let source = claimedSource, let destination = claimedDestination, names.contains(source),
                names.contains(destination)
            {
                return .maps(MappingModel(name: name, source: source, destination: destination))
            }
            guard let (source, destination) = pairFromFileName(name, versions: names) else { return nil }
            var mapping = MappingModel(name: name, source: source, destination: destination)
            mapping.evidence = .fileName
            return .maps(mapping)
        }
        // Core Data compares the hashes recorded for the linked entity mappings only, each set a subset of the
        // model's; a file that lists none is compared whole.
        let recordedSource = file.linkedSourceNames.map { recorded($0, in: sourceModel) }
        let recordedDestination = file.linkedDestinationNames.map { recorded($0, in: destinationModel) }
        func accepted(_ snapshot: EmbeddedModelHashes, _ recorded: [String: [UInt8]]?, _ version: Model) -> [String]? {
            guard let recorded else { return equality(snapshot, version) }
            return containment(recorded, of: snapshot, version)
        }
        let sources = versions.compactMap { v in accepted(sourceModel, recordedSource, v.model).map { (v.name, $0) } }
        let destinations = versions.compactMap { v in
            accepted(destinationModel, recordedDestination, v.model).map { (v.name, $0) }
        }
        if !sources.isEmpty, !destinations.isEmpty {
            // Versions equal by hash are one model to Core Data; the paths' choice among them is kept.
            let source = sources.first { $0.0 == claimedSource } ?? sources.last!
            let sourcePosition = names.firstIndex(of: source.0) ?? 0
            let destination =
                destinations.first { $0.0 == claimedDestination }
                ?? destinations.first { (names.firstIndex(of: $0.0) ?? 0) > sourcePosition } ?? destinations[0]
            var mapping = MappingModel(name: name, source: source.0, destination: destination.0)
            mapping.evidence = .embeddedModels(cleared: Array(Set(source.1 + destination.1)).sorted())
            mapping.sources = sources.map(\.0)
            mapping.destinations = destinations.map(\.0)
            mapping.linkedSources = file.linkedSourceNames
            mapping.path = path
            return .maps(mapping)
        }
        // Reported only when it claims this bundle: a path names one of its versions, a side equals one, or the
        // file name pairs two of them.
        let claimsThisBundle =
            [claimedSource, claimedDestination].contains { $0.map(names.contains) == true } || !sources.isEmpty
            || !destinations.isEmpty || pairFromFileName(name, versions: names) != nil
        guard claimsThisBundle else { return nil }
        func differences(_ snapshot: EmbeddedModelHashes, claimed: String?, recorded: [String: [UInt8]]?)
            -> [String]?
        {
            guard let claimed, let version = versions.first(where: { $0.name == claimed }) else { return nil }
            return entityDifferences(snapshot, version.model, only: recorded.map { Set($0.keys) })
        }
        return .unmatched(
            UnmatchedMappingModel(
                name: name, path: path, claimedSource: claimedSource, claimedDestination: claimedDestination,
                sourceMatches: sources.map(\.0), destinationMatches: destinations.map(\.0),
                sourceDifferences: sources.isEmpty
                    ? differences(sourceModel, claimed: claimedSource, recorded: recordedSource) : nil,
                destinationDifferences: destinations.isEmpty
                    ? differences(destinationModel, claimed: claimedDestination, recorded: recordedDestination)
                    : nil))
    }

    /// Each source matched among `versions`: the pairs they map, and those that claim the bundle but match nothing.
    package static func match(_ sources: [MappingModelSource], versions: [VersionRef])
        -> (maps: [MappingModel], unmatched: [UnmatchedMappingModel])
    {
        var maps: [MappingModel] = []
        var unmatched: [UnmatchedMappingModel] = []
        for source in sources {
            switch match(source.file, name: source.name, path: source.path, versions: versions) {
            case .maps(let mapping)?: maps.append(mapping)
            case .unmatched(let stale)?: unmatched.append(stale)
            case nil: break
            }
        }
        return (maps, unmatched)
    }

    /// The hashes a compiled mapping model records for one side: the embedded model's hash of each entity the
    /// linked mappings name (a name the embedded model lacks records nothing).
    package static func recorded(_ names: [String], in snapshot: EmbeddedModelHashes) -> [String: [UInt8]] {
        var hashes: [String: [UInt8]] = [:]
        for name in names { hashes[name] = snapshot.entities[name] }
        return hashes
    }

    /// Whether Core Data accepts a version for one side of a mapping model: the recorded hashes are a non-empty
    /// subset of the version's (an entity's hash covers its name, so by name is by value), and which hashed facts
    /// had to be cleared in the version because the snapshot cannot record them. nil: not a subset.
    package static func containment(
        _ recorded: [String: [UInt8]], of snapshot: EmbeddedModelHashes, _ version: Model
    ) -> [String]? {
        guard !recorded.isEmpty else { return nil }
        // First what costs nothing: each recorded entity is the version's with the same stored property names (an
        // entity's hash covers them). Most versions of a long bundle differ there, and their hashes are never
        // computed.
        for name in recorded.keys {
            guard let entity = version.entity(named: name), let stored = snapshot.properties[name],
                entity.properties.lazy.filter({ !$0.isTransient }).count == stored.count,
                entity.properties.allSatisfy({ $0.isTransient || stored[$0.name] != nil })
            else { return nil }
        }
        let plain = version.versionHashes.entities
        if recorded.allSatisfy({ plain[$0.key] == $0.value }) { return [] }
        let (model, cleared) = withUnrecordedFactsCleared(version)
        guard !cleared.isEmpty else { return nil }
        let hashes = model.versionHashes.entities
        return recorded.allSatisfy({ hashes[$0.key] == $0.value }) ? cleared : nil
    }

    /// Whether an embedded model is the version to Core Data (the same entity hashes), and which hashed facts had
    /// to be cleared in the version because the snapshot cannot record them. nil: they differ.
    package static func equality(_ snapshot: EmbeddedModelHashes, _ version: Model) -> [String]? {
        // The same entities, each with the same hash: every hash recorded, and no other entity.
        guard snapshot.hasEntityNames(of: version) else { return nil }
        return containment(snapshot.entities, of: snapshot, version)
    }

    /// The version with the hashed facts a snapshot does not record (preserveAfterDeletion, derived attributes)
    /// cleared, and their names; the version itself when it uses none.
    static func withUnrecordedFactsCleared(_ version: Model) -> (Model, [String]) {
        var cleared: Set<String> = []
        let entities = version.entities.map { entity -> Entity in
            var copy = entity
            copy.properties = entity.properties.map { property in
                guard case .attribute(let attribute) = property,
                    attribute.preserveAfterDeletion || attribute.isDerived
                else { return property }
                if attribute.preserveAfterDeletion { cleared.insert(MappingModelSnapshot.unrecordedHashedFacts[0]) }
                if attribute.isDerived { cleared.insert(MappingModelSnapshot.unrecordedHashedFacts[1]) }
                var plain = attribute
                plain.fields = attribute.fields.with {
                    $0.preserveAfterDeletion = false
                    $0.isDerived = false
                    $0.derivationExpression = nil
                }
                return .attribute(plain)
            }
            return copy
        }
        guard !cleared.isEmpty else { return (version, []) }
        return (Model(location: version.location, entities: entities), cleared.sorted())
    }

    /// How a version differs from an embedded model, as Core Data's hashes see it: entities and properties added
    /// since the copy was made, removed, or changed (`Entry.pinned added`), in name order.
    /// `only`: the entities the mapping model's linked mappings name, when it lists them (no other entity counts).
    package static func entityDifferences(_ snapshot: EmbeddedModelHashes, _ version: Model, only: Set<String>? = nil)
        -> [String]
    {
        let was = snapshot.entities
        let now = version.versionHashes.entities
        var differences: [String] = []
        let names = only ?? Set(was.keys).union(now.keys)
        for name in names.sorted(by: CoreDataHash.precedes) where was[name] != now[name] {
            guard let before = snapshot.properties[name], let new = version.entity(named: name) else {
                differences.append("entity \(name) \(was[name] == nil ? "added" : "removed")")
                continue
            }
            let after = EmbeddedModelHashes.propertyHashes(of: new)
            let changed = Set(before.keys).union(after.keys).sorted(by: CoreDataHash.precedes).filter {
                before[$0] != after[$0]
            }
            differences +=
                changed.isEmpty
                ? ["entity \(name) changed"]
                : changed.map {
                    "\(name).\($0) \(before[$0] == nil ? "added" : after[$0] == nil ? "removed" : "changed")"
                }
        }
        return differences
    }

    package static func versionName(_ path: String) -> String? {
        guard let last = path.split(separator: "/").last else { return nil }
        return last.hasSuffix(".xcdatamodel") ? String(last.dropLast(".xcdatamodel".count)) : String(last)
    }

    /// Scans the file in chunks and stops once both paths are known: these files embed both models as
    /// base64 and can be several megabytes. The XML is never parsed, so its external DTD is never resolved.
    package static func modelPaths(in file: URL) -> (source: String?, destination: String?) {
        var source: String?
        var destination: String?
        var window: [UInt8] = []
        try? FileReader.scan(file.path, limit: FileReader.Limit.mappingModel) { chunk in
            window += chunk
            if source == nil { source = value(of: "sourcemodelpath", in: window) }
            if destination == nil { destination = value(of: "destinationmodelpath", in: window) }
            // Keep a tail so a value split across chunks is still found.
            if window.count > 4096 { window.removeFirst(window.count - 4096) }
            return source == nil || destination == nil
        }
        return (source, destination)
    }

    package static func value(of attribute: String, in bytes: [UInt8]) -> String? {
        guard let start = ByteSearch.firstIndex(of: Array("name=\"\(attribute)\"".utf8), in: bytes),
            let open = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: bytes, from: start),
            let close = ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: bytes, from: open + 1)
        else { return nil }
        return String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
    }

    /// `DeltaToDelta2`, `WooCommerceModelV9toV10`: split at "To"/"to", then match each side to one version by
    /// spelling (spaces and case ignored) or, failing that, by its trailing number.
    package static func pairFromFileName(_ name: String, versions: [String]) -> (String, String)? {
        var searchStart = name.startIndex
        // Try every "to": version names can contain it too (`PhotoToPhoto2`).
        while let range = name.range(of: "to", options: .caseInsensitive, range: searchStart..<name.endIndex) {
            let left = String(name[..<range.lowerBound])
            let right = String(name[range.upperBound...])
            if let source = match(left, versions), let destination = match(right, versions), source != destination {
                return (source, destination)
            }
            searchStart = range.upperBound
        }
        return nil
    }

    package static func match(_ fragment: String, _ versions: [String]) -> String? {
        func squash(_ s: String) -> String { s.lowercased().filter { !$0.isWhitespace } }
        if let exact = versions.first(where: { squash($0) == squash(fragment) }) { return exact }
        let number = trailingNumber(fragment)
        let candidates = versions.filter { trailingNumber($0) == number }
        return candidates.count == 1 ? candidates[0] : nil
    }

    package static func trailingNumber(_ s: String) -> Int? {
        let digits = s.reversed().prefix { $0.isASCIIDigit }
        return digits.isEmpty ? nil : Int(String(digits.reversed()))
    }
}

/// The embedded models one run has read, by their base64 text: a bundle with a mapping model per step embeds most
/// versions twice (one step's destination is the next one's source, written from the same version), and each is
/// decoded and hashed once. The key is the text's length and its 128-bit digest (MurmurHash3): two texts that
/// differ collide only by construction, and whoever can construct them can write the mapping model's verdict anyway.
/// Its hash cache is shared by every embedded model it reads, keeping property hashes only: the versions repeat
/// most properties, and an entity's key would keep every model's elements alive for the run.
package final class EmbeddedModelMemo: Sendable {
    private struct Key: Hashable {
        var digest: Digest128
        var count: Int
    }
    /// One text's hashes: read by the first thread that asks; one that asks while it is being read waits for it
    /// (two cores take neighbouring mapping models, which share a model, at the same moment).
    private final class Slot: Sendable {
        let read = DispatchGroup()
        let hashes = Locked<EmbeddedModelHashes?>(nil)
    }
    private let known = Locked([Key: Slot]())
    package let hashCache = CoreDataHashCache(keepsEntities: false)

    package init() {}

    /// The hashes of the model embedded as `text`, read with `read` the first time (nil: it could not be read).
    package func hashes(of text: ArraySlice<UInt8>, read: () -> EmbeddedModelHashes?) -> EmbeddedModelHashes? {
        let key = text.withUnsafeBufferPointer { Key(digest: Digest128($0), count: $0.count) }
        let (slot, isMine) = known.withLock { table -> (Slot, Bool) in
            if let slot = table[key] { return (slot, false) }
            let slot = Slot()
            slot.read.enter()
            table[key] = slot
            return (slot, true)
        }
        if isMine {
            let made = read()
            slot.hashes.withLock { $0 = made }
            slot.read.leave()
            return made
        }
        slot.read.wait()
        return slot.hashes.withLock { $0 }
    }
}
