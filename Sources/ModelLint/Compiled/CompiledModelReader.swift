import Foundation
import ModelLintSupport
import ModelLintModel

/// Reads a compiled `.momd` and the `.cdm` files beside it into a `CompiledModel`. Every file is untrusted: read
/// only when regular and within a size cap, archives walked as property-list graphs with every reference checked.
package enum CompiledModelReader {
    /// A `.mom` of the largest real model (WooCommerce, 117 versions) is under 200 KB; a `.cdm` embeds no models.
    package static let archiveLimit = 64 << 20

    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// `path` is the `.momd` folder; `displayPath` how reports name it.
    package static func read(momd path: String, displayPath: String) throws -> CompiledModel {
        if path.hasSuffix(".mom"), FileReader.kind(at: path) == .regular {
            return try bare(mom: path, displayPath: displayPath)
        }
        guard FileReader.kind(at: path) == .directory else {
            throw ReadError(description: "\(displayPath) is not a compiled model (a .momd folder or a .mom file)")
        }
        InputLog.listed(path)
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
        var info: [String: Any] = [:]
        if names.contains("VersionInfo.plist") {
            let file = path + "/VersionInfo.plist"
            do {
                let data = try FileReader.read(file, limit: FileReader.Limit.smallFile)
                guard let plist = try PropertyList.parse(data) as? [String: Any] else {
                    throw ReadError(description: "not a dictionary")
                }
                info = plist
            } catch {
                throw ReadError(description: "\(displayPath)/VersionInfo.plist cannot be read: \(error)")
            }
        }
        let moms = names.filter { $0.hasSuffix(".mom") }
        guard !moms.isEmpty || names.contains("VersionInfo.plist") else {
            throw ReadError(
                description: "\(displayPath) is not a compiled model: it holds no .mom file and no VersionInfo.plist")
        }
        let recorded = info["NSManagedObjectModel_VersionHashes"] as? [String: Any] ?? [:]
        let checksums = info["NSManagedObjectModel_VersionChecksums"] as? [String: Any] ?? [:]
        var versionNames = names.filter { $0.hasSuffix(".mom") }.map { String($0.dropLast(4)) }
        for name in recorded.keys.sorted() where !versionNames.contains(name) { versionNames.append(name) }
        let versions = versionNames.map { name -> CompiledVersion in
            let hashes = (recorded[name] as? [String: Any]).map { entities in
                entities.compactMapValues { ($0 as? Data).map { [UInt8]($0) } }
            }
            var version = CompiledVersion(
                name: name, path: displayPath, model: nil, recordedHashes: hashes,
                recordedChecksum: checksums[name] as? String)
            guard names.contains(name + ".mom") else {
                version.hasFile = false
                return version
            }
            version.path = "\(displayPath)/\(name).mom"
            do {
                version.model = try model(at: "\(path)/\(name).mom", displayPath: version.path)
            } catch {
                version.problem = "\(error)"
            }
            return version
        }
        return CompiledModel(
            path: displayPath, currentVersion: info["NSManagedObjectModel_CurrentVersionName"] as? String,
            versions: versions, mappings: mappings(beside: path, displayPath: displayPath))
    }

    /// The compiled mapping models in the folder holding `path`.
    private static func mappings(beside path: String, displayPath: String) -> [CompiledMapping] {
        let parent = folder(of: path)
        let displayParent = folder(of: displayPath)
        // A compiled mapping model, or one committed as a copy Xcode does not compile again (`*.cdm_precompiled`).
        InputLog.listed(parent)
        return ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).filter {
            $0.hasSuffix(".cdm") || $0.hasSuffix(".cdm_precompiled")
        }.sorted().map { file in
            let display = displayParent.isEmpty ? file : "\(displayParent)/\(file)"
            do {
                return try mapping(at: "\(parent)/\(file)", displayPath: display)
            } catch {
                return CompiledMapping(
                    name: mappingName(file), path: display, entityMappings: [], problem: "\(error)")
            }
        }
    }

    /// A bare `.mom`: the one compiled version an unversioned model builds, and the `.cdm` files beside it.
    private static func bare(mom path: String, displayPath: String) throws -> CompiledModel {
        let file = (displayPath as NSString).lastPathComponent
        let version = CompiledVersion(
            name: String(file.dropLast(4)), path: displayPath, model: try model(at: path, displayPath: displayPath))
        var build = CompiledModel(
            path: displayPath, currentVersion: nil, versions: [version],
            mappings: mappings(beside: path, displayPath: displayPath))
        build.isBareModel = true
        return build
    }

    /// The folder a path is in ("" for a bare name).
    package static func folder(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    package static func archive(at path: String, displayPath: String) throws -> KeyedArchive {
        let data: Data
        do {
            data = try FileReader.read(path, limit: archiveLimit)
        } catch {
            throw ReadError(description: "\(displayPath) cannot be read: \(error)")
        }
        do {
            return try KeyedArchive(bytes: [UInt8](data))
        } catch {
            throw ReadError(description: "\(displayPath): \(error)")
        }
    }

    /// A compiled version (`.mom`) as a model graph: what its hashes and renaming identifiers are computed from.
    package static func model(at path: String, displayPath: String) throws -> Model {
        try model(from: archive(at: path, displayPath: displayPath), displayPath: displayPath)
    }

    package static func model(from archive: KeyedArchive, displayPath: String) throws -> Model {
        guard archive.className(archive.root) == "NSManagedObjectModel",
            let entitiesRef = archive.reference(archive.root, "NSEntities")
        else {
            throw ReadError(description: "\(displayPath) is not a compiled managed object model")
        }
        let location = SourceLocation(file: displayPath)
        // Every entity, property and constraint member read costs one unit. A real archive holds each of them
        // as an object of its own, so it never needs more than it has objects; one whose entities all share
        // one set of properties would describe entities x properties from a few kilobytes.
        var budget = WorkBudget(
            limit: 2 * archive.archived.count + 4096,
            what: "entities and properties (it holds \(archive.archived.count) objects)")
        do {
            return try model(from: archive, entitiesRef: entitiesRef, location: location, budget: &budget)
        } catch let exceeded as WorkBudget.Exceeded {
            throw ReadError(description: "\(displayPath): \(exceeded)")
        }
    }

    private static func model(
        from archive: KeyedArchive, entitiesRef: Int, location: SourceLocation, budget: inout WorkBudget
    ) throws -> Model {
        var entities: [Entity] = []
        var unrecorded: UnrecordedFacts = []
        for (_, entity) in archive.entries(entitiesRef) {
            try budget.spend()
            guard archive.className(entity) == "NSEntityDescription", let name = archive.string(entity, "NSEntityName")
            else { continue }
            var fields = Entity.Fields(name: name)
            fields.isAbstract = archive.bool(entity, "NSIsAbstract") ?? false
            fields.parentEntity = archive.reference(entity, "NSSuperentity").flatMap {
                archive.string($0, "NSEntityName")
            }
            fields.versionHashModifier = archive.string(entity, "NSVersionHashModifier")
            // A store's cached model keeps no class names; NSManagedObject is the editor's "no class".
            switch archive.string(entity, "NSClassNameForEntity") {
            case nil: unrecorded.insert(.classNames)
            case "NSManagedObject": fields.representedClassName = nil
            case let name: fields.representedClassName = name
            }
            fields.userInfo = userInfo(entity, in: archive)
            fields.fetchIndexes = fetchIndexes(entity, in: archive, location: location)
            // Xcode compiles each fetch index into a compound index too: only a model that has no fetch index
            // (written before they existed) says anything with its compound indexes.
            if fields.fetchIndexes.isEmpty, let compound = archive.reference(entity, "NSCompoundIndexes") {
                fields.compoundIndexes = archive.members(compound).map { index in
                    UniquenessConstraint(
                        properties: archive.members(index).compactMap {
                            archive.text($0) ?? archive.string($0, "NSPropertyName")
                        }, location: location)
                }
            }
            if let renaming = archive.string(entity, "NSRenamingIdentifier"), renaming != name {
                fields.elementID = renaming
            }
            if let tuples = archive.reference(entity, "NSUniqueTuples") {
                fields.uniquenessConstraints = try archive.members(tuples).map { tuple in
                    let members = archive.members(tuple)
                    try budget.spend(members.count + 1)
                    return UniquenessConstraint(
                        properties: members.compactMap { archive.text($0) ?? archive.string($0, "NSPropertyName") },
                        location: location)
                }
            }
            var properties: [Property] = []
            if let propertiesRef = archive.reference(entity, "NSProperties") {
                for (_, property) in archive.entries(propertiesRef) {
                    try budget.spend()
                    var unrecordedClassName = false
                    if let p = self.property(
                        property, in: archive, location: location, unrecordedClassName: &unrecordedClassName)
                    {
                        properties.append(p)
                    }
                    if unrecordedClassName { unrecorded.insert(.classNames) }
                    if let predicates = archive.reference(property, "NSValidationPredicates"),
                        !archive.members(predicates).isEmpty
                    {
                        unrecorded.insert(.validation)
                    }
                }
            }
            // The compiler marks a property that a fetch index names as indexed (`NSIsIndexed`); the editor's
            // XML says so only with the fetch index, so the flag is the index's, not a fact of its own.
            let indexed = Set(fields.fetchIndexes.flatMap { $0.elements.compactMap(\.property) })
            for i in properties.indices where indexed.contains(properties[i].name) {
                if case .attribute(var attribute) = properties[i], attribute.isIndexed {
                    attribute.isIndexed = false
                    properties[i] = .attribute(attribute)
                }
            }
            // Core Data's order by name; the archive's dictionary order means nothing.
            properties.sort { CoreDataHash.precedes($0.name, $1.name) }
            entities.append(Entity(location: location, properties: properties, fields: fields))
        }
        entities.sort { CoreDataHash.precedes($0.name, $1.name) }
        var model = Model(location: location, entities: inheritedPropertiesRemoved(entities))
        model.unrecorded = unrecorded
        return model
    }

    /// A store's cached model lists every inherited property again in each subentity (as a copy, or as a
    /// `_NSPropertyDescriptionProxy`); the model graph, as the editor's XML, holds a property only where it is
    /// declared. A subentity cannot redeclare a name its ancestors have, so a name an ancestor lists is inherited.
    private static func inheritedPropertiesRemoved(_ entities: [Entity]) -> [Entity] {
        var index: [String: Int] = [:]
        for (i, entity) in entities.enumerated() where index[entity.name] == nil { index[entity.name] = i }
        return entities.map { entity in
            var inherited: Set<String> = []
            var seen: Set<String> = [entity.name]
            var parent = entity.parentEntity
            while let name = parent, seen.insert(name).inserted, let i = index[name] {
                inherited.formUnion(entities[i].properties.map(\.name))
                parent = entities[i].parentEntity
            }
            guard !inherited.isEmpty else { return entity }
            var own = entity
            own.properties.removeAll { inherited.contains($0.name) }
            return own
        }
    }

    /// An archived `NSUserInfo` dictionary, as the editor's `<userInfo>` entries (keys in order).
    private static func userInfo(_ object: Int, in archive: KeyedArchive) -> [UserInfoEntry] {
        guard let dictionary = archive.reference(object, "NSUserInfo") else { return [] }
        return archive.entries(dictionary).compactMap { key, value in
            guard let key = archive.text(key) else { return nil }
            return UserInfoEntry(key: key, value: archive.text(value) ?? "")
        }.sorted { $0.key < $1.key }
    }

    /// `NSFetchIndexDescriptions`, as the editor's `<fetchIndex>` elements.
    private static func fetchIndexes(_ entity: Int, in archive: KeyedArchive, location: SourceLocation) -> [FetchIndex]
    {
        guard let list = archive.reference(entity, "NSFetchIndexDescriptions") else { return [] }
        return archive.members(list).map { index in
            let elements = archive.reference(index, "NSIndexElements").map(archive.members) ?? []
            return FetchIndex(
                name: archive.string(index, "NSIndexName") ?? "",
                elements: elements.map { element in
                    FetchIndexElement(
                        property: archive.string(element, "NSPropertyName")
                            ?? archive.reference(element, "NSProperty").flatMap { archive.string($0, "NSPropertyName") },
                        type: archive.integer(element, "NSFetchIndexElementType") == 1 ? "RTree" : "Binary",
                        order: archive.bool(element, "NSAscending") == false ? "descending" : "ascending",
                        location: location)
                }, location: location)
        }
    }

    /// `NSDefaultValue` in the spelling the editor writes for the attribute's type.
    private static func setDefault(_ fields: inout Attribute.Fields, _ object: Int, in archive: KeyedArchive) {
        func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }
        guard let value = archive.scalar(object, "NSDefaultValue") else { return }
        switch (fields.type, value) {
        case (.boolean, .bool(let b)): fields.defaultValueString = b ? "YES" : "NO"
        case (.boolean, .integer(let i)): fields.defaultValueString = i == 0 ? "NO" : "YES"
        case (_, .bool(let b)): fields.defaultValueString = b ? "1" : "0"
        case (_, .integer(let i)): fields.defaultValueString = String(i)
        case (_, .real(let d)): fields.defaultValueString = number(d)
        case (_, .string(let s)): fields.defaultValueString = s
        case (.date, .dictionary):
            // An archived NSDate: seconds since 2001 in `NS.time`.
            if case .uid(let target)? = archive.fields(object)?["NSDefaultValue"].map({ archive.plist.objects[$0] }),
                let time = archive.fields(target)?["NS.time"]
            {
                switch archive.plist.objects[time] {
                case .real(let seconds): fields.defaultDateTimeInterval = number(seconds)
                case .integer(let seconds): fields.defaultDateTimeInterval = String(seconds)
                default: break
                }
            }
        default: break
        }
    }

    package static func property(_ object: Int, in archive: KeyedArchive, location: SourceLocation) -> Property? {
        var unrecorded = false
        return property(object, in: archive, location: location, unrecordedClassName: &unrecorded)
    }

    /// `unrecordedClassName`: set when a transformable attribute's class name is not recorded (a store's cache).
    static func property(
        _ object: Int, in archive: KeyedArchive, location: SourceLocation, unrecordedClassName: inout Bool
    ) -> Property? {
        guard let name = archive.string(object, "NSPropertyName") else { return nil }
        let renaming = archive.string(object, "NSRenamingIdentifier").flatMap { $0 == name ? nil : $0 }
        switch archive.className(object) {
        case "NSAttributeDescription", "NSDerivedAttributeDescription", "NSCompositeAttributeDescription":
            let code = archive.integer(object, "NSAttributeType") ?? 0
            var fields = Attribute.Fields(
                name: name,
                type: AttributeType.known.first { CoreDataHash.typeCode($0) == UInt32(truncatingIfNeeded: code) }
                    ?? .undefined)
            fields.isOptional = archive.bool(object, "NSIsOptional") ?? false
            fields.isTransient = archive.bool(object, "NSIsTransient") ?? false
            fields.versionHashModifier = archive.string(object, "NSVersionHashModifier")
            // `NSFlagsKey`: 0x10 is preserveAfterDeletion (checked on CoreDataPlus); 0x01 for external storage
            // follows the same layout but is not verified on a real file.
            let flags = archive.integer(object, "NSFlagsKey") ?? 0
            fields.allowsExternalBinaryDataStorage = flags & 0x01 != 0
            fields.preserveAfterDeletion = flags & 0x10 != 0
            fields.valueTransformerName = archive.string(object, "NSValueTransformerName")
            if fields.type == .transformable {
                switch archive.string(object, "NSAttributeValueClassName") {
                case nil: unrecordedClassName = true
                case "NSObject": break
                case let name: fields.customClassName = name
                }
            }
            fields.isIndexed = archive.bool(object, "NSIsIndexed") ?? false
            fields.userInfo = userInfo(object, in: archive)
            setDefault(&fields, object, in: archive)
            fields.elementID = renaming
            if archive.className(object) == "NSDerivedAttributeDescription" {
                fields.isDerived = true
                // The expression is an archived NSExpression; only a key path is printed back here.
                fields.derivationExpression = archive.reference(object, "NSDerivationExpression").flatMap {
                    archive.string($0, "NSKeyPath")
                }
            }
            return .attribute(Attribute(location: location, fields: fields))
        case "NSRelationshipDescription":
            var fields = Relationship.Fields(name: name)
            fields.isOptional = archive.bool(object, "NSIsOptional") ?? false
            fields.isTransient = archive.bool(object, "NSIsTransient") ?? false
            fields.versionHashModifier = archive.string(object, "NSVersionHashModifier")
            fields.destinationEntity =
                archive.string(object, "_NSDestinationEntityName")
                ?? archive.reference(object, "NSDestinationEntity").flatMap { archive.string($0, "NSEntityName") }
            fields.inverseName = archive.string(object, "_NSInverseRelationshipName")
            let maxCount = Int(clamping: archive.integer(object, "NSMaxCount") ?? 0)
            let minCount = Int(clamping: archive.integer(object, "NSMinCount") ?? 0)
            fields.maxCount = maxCount
            fields.minCount = minCount
            fields.isToMany = maxCount != 1
            fields.isOrdered = archive.bool(object, "NSIsOrdered") ?? false
            switch archive.integer(object, "NSDeleteRule") {
            case 0: fields.deleteRule = .noAction
            case 2: fields.deleteRule = .cascade
            case 3: fields.deleteRule = .deny
            default: fields.deleteRule = .nullify
            }
            fields.isIndexed = archive.bool(object, "NSIsIndexed") ?? false
            fields.userInfo = userInfo(object, in: archive)
            fields.elementID = renaming
            return .relationship(Relationship(location: location, fields: fields))
        default:
            return nil
        }
    }

    /// A mapping model's name: its file name without `.cdm` (or `.cdm_precompiled`).
    package static func mappingName(_ file: String) -> String {
        for suffix in [".cdm", ".cdm_precompiled"] where file.hasSuffix(suffix) {
            return String(file.dropLast(suffix.count))
        }
        return file
    }

    /// A compiled mapping model (`.cdm`): each entity mapping's source and destination entity and hash.
    package static func mapping(at path: String, displayPath: String) throws -> CompiledMapping {
        let archive = try archive(at: path, displayPath: displayPath)
        guard archive.className(archive.root) == "NSMappingModel",
            let list = archive.reference(archive.root, "NSEntityMappings")
        else {
            throw ReadError(description: "\(displayPath) is not a compiled mapping model")
        }
        let file = displayPath.split(separator: "/").last.map(String.init) ?? displayPath
        let name = mappingName(file)
        let entityMappings = archive.members(list).map { m -> CompiledMapping.EntityMapping in
            func side(_ entity: String, _ hash: String) -> (entity: String, hash: [UInt8])? {
                guard let e = archive.string(m, entity), let h = archive.data(m, hash) else { return nil }
                return (e, h)
            }
            return CompiledMapping.EntityMapping(
                name: archive.string(m, "NSMappingName") ?? "",
                source: side("NSSourceEntityName", "NSSourceEntityVersionHash"),
                destination: side("NSDestinationEntityName", "NSDestinationEntityVersionHash"))
        }
        return CompiledMapping(name: name, path: displayPath, entityMappings: entityMappings)
    }
}
