import Foundation
import ModelLintSupport

/// A model an `.xcmappingmodel` embeds (`sourcemodeldata`, `destinationmodeldata`): the mapping editor's copy of the
/// version it was made from, as a keyed archive of Xcode's own editor classes (XDPMModel, XDPMEntity,
/// XDPMAttribute, XDPMRelationship), not of a compiled model. Each element's facts are the default values of its
/// stereotype's attributes (`XD_PSK_isAbstract`, `XD_PPSK_isOptional`, `XD_PAttK_attributeType`,
/// `XD_PRK_destination`, …). Xcode compiles the mapping model's entity hashes from these copies, so they, not the
/// path names written beside them, decide which versions the mapping model maps.
public enum MappingModelSnapshot {
    /// Hashed facts the archive does not record (none of the Xcode versions seen writes a key for them): a version
    /// that uses one is compared with it cleared, and the match says so.
    public static let unrecordedHashedFacts = ["preserveAfterDeletion", "derived attributes"]

    public struct ReadError: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The base64 text of `<attribute name="NAME" …>…</attribute>` in an `xcmapping.xml`, decoded.
    package static func embeddedArchive(_ name: String, in xml: [UInt8]) -> [UInt8]? {
        guard let start = ByteSearch.firstIndex(of: Array("name=\"\(name)\"".utf8), in: xml),
            let open = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: xml, from: start),
            let close = ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: xml, from: open + 1)
        else { return nil }
        return Data(base64Encoded: Data(xml[(open + 1)..<close]), options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }

    /// The snapshot as a model graph: entities, their parents, attributes and relationships with every fact the
    /// archive records that Core Data hashes.
    public static func model(archive bytes: [UInt8], displayPath: String) throws -> Model {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(bytes: bytes)
        } catch {
            throw ReadError(description: "\(displayPath): \(error)")
        }
        guard archive.className(archive.root) == "XDPMModel",
            let package = archive.reference(archive.root, "_xd_rootPackage"),
            let classes = archive.reference(package, "XDBucketForClassesstorage")
        else {
            throw ReadError(description: "\(displayPath): not a mapping editor's model (no XDPMModel with classes)")
        }
        // One unit per entity, property and constraint member: a real archive holds each as an object of its own.
        var budget = WorkBudget(
            limit: 2 * archive.archived.count + 4096,
            what: "entities and properties (it holds \(archive.archived.count) objects)")
        let location = SourceLocation(file: displayPath)
        let keys = FactKeyObjects(archive)
        do {
            var entities: [Entity] = []
            for (_, entity) in archive.entries(classes) {
                try budget.spend()
                guard archive.className(entity) == "XDPMEntity", let name = archive.string(entity, "_name") else {
                    continue
                }
                let facts = StereotypeValues(entity, in: archive, keys: keys)
                var fields = Entity.Fields(name: name)
                fields.isAbstract = facts["XD_PSK_isAbstract"].flatMap { archive.bool($0, "_default") } ?? false
                fields.versionHashModifier = facts["XD_PSK_versionHashModifier"].flatMap {
                    archive.string($0, "_default")
                }
                fields.elementID = facts["XD_PSK_elementID"].flatMap { archive.string($0, "_default") }
                if let generalizations = archive.reference(entity, "XDBucketForGeneralizationsstorage") {
                    fields.parentEntity =
                        archive.members(generalizations).lazy.compactMap {
                            archive.reference($0, "_general").flatMap { archive.string($0, "_name") }
                        }.first
                }
                if let constraints = facts["XDPMUniquenessConstraints"].flatMap({ archive.reference($0, "_default") }) {
                    fields.uniquenessConstraints = try archive.members(constraints).map { tuple in
                        let members = archive.members(tuple)
                        try budget.spend(members.count + 1)
                        return UniquenessConstraint(properties: members.compactMap(archive.text), location: location)
                    }
                }
                var properties: [Property] = []
                if let owned = archive.reference(entity, "XDBucketForOwnedAttributesstorage") {
                    for (_, property) in archive.entries(owned) {
                        try budget.spend()
                        if let p = self.property(property, in: archive, keys: keys, location: location) {
                            properties.append(p)
                        }
                    }
                }
                properties.sort { CoreDataHash.precedes($0.name, $1.name) }
                entities.append(Entity(location: location, properties: properties, fields: fields))
            }
            entities.sort { CoreDataHash.precedes($0.name, $1.name) }
            return Model(location: location, entities: entities)
        } catch let exceeded as WorkBudget.Exceeded {
            throw ReadError(description: "\(displayPath): \(exceeded)")
        }
    }

    /// The stereotype attributes an element's facts are read from.
    private static let factKeys = [
        "XD_PSK_isAbstract", "XD_PSK_versionHashModifier", "XD_PSK_elementID", "XDPMUniquenessConstraints",
        "XD_PPSK_isOptional", "XD_PPSK_isTransient", "XD_PPSK_versionHashModifier", "XD_PPSK_elementID",
        "XD_PAttK_attributeType", "XD_PAttK_allowsExternalBinaryDataStorage", "XD_PAttK_valueTransformerName",
        "XD_PAttK_defaultValueAsString", "XD_PRK_destination", "XD_PRK_inverseRelationship", "XD_PRK_maxCount",
        "XD_PRK_minCount", "XD_PRK_isToMany", "XD_PRK_ordered",
    ]
    private static let factPositions = Dictionary(uniqueKeysWithValues: factKeys.enumerated().map { ($1, $0) })

    /// An element's stereotype attributes (`XD_PPSK_isOptional` -> the attribute object holding the value as its
    /// `_default`), for the keys in `factKeys`; the first of a repeated key counts.
    private struct StereotypeValues {
        var values = [Int?](repeating: nil, count: factKeys.count)

        init(_ element: Int, in archive: KeyedArchive, keys: FactKeyObjects) {
            guard let stereotypes = archive.reference(element, "XDBucketForStereotypesstorage") else { return }
            for (_, stereotype) in archive.entries(stereotypes) {
                guard let owned = archive.reference(stereotype, "XDBucketForOwnedAttributesstorage") else { continue }
                for (key, value) in archive.entries(owned) {
                    if let position = keys.position(of: key), values[position] == nil { values[position] = value }
                }
            }
        }

        subscript(key: String) -> Int? { factPositions[key].flatMap { values[$0] } }
    }

    /// Which of `factKeys` each archived key object is, each object's text compared once: every element's
    /// stereotype attributes are keyed by the same few dozen archived strings.
    private final class FactKeyObjects {
        let archive: KeyedArchive
        private var positions: [Int: Int] = [:]

        init(_ archive: KeyedArchive) { self.archive = archive }

        func position(of object: Int) -> Int? {
            if let known = positions[object] { return known < 0 ? nil : known }
            let position = archive.text(object).flatMap { factPositions[$0] }
            positions[object] = position ?? -1
            return position
        }
    }

    private static func property(
        _ object: Int, in archive: KeyedArchive, keys: FactKeyObjects, location: SourceLocation
    )
        -> Property?
    {
        guard let name = archive.string(object, "_name") else { return nil }
        let facts = StereotypeValues(object, in: archive, keys: keys)
        func flag(_ key: String) -> Bool { facts[key].flatMap { archive.bool($0, "_default") } ?? false }
        func string(_ key: String) -> String? { facts[key].flatMap { archive.string($0, "_default") } }
        func integer(_ key: String) -> Int? {
            facts[key].flatMap { archive.integer($0, "_default") }.map { Int(clamping: $0) }
        }
        switch archive.className(object) {
        case "XDPMAttribute":
            let code = integer("XD_PAttK_attributeType") ?? 0
            var fields = Attribute.Fields(
                name: name,
                type: AttributeType.known.first { CoreDataHash.typeCode($0) == UInt32(truncatingIfNeeded: code) }
                    ?? .undefined)
            fields.isOptional = flag("XD_PPSK_isOptional")
            fields.isTransient = flag("XD_PPSK_isTransient")
            fields.versionHashModifier = string("XD_PPSK_versionHashModifier")
            fields.elementID = string("XD_PPSK_elementID")
            fields.allowsExternalBinaryDataStorage = flag("XD_PAttK_allowsExternalBinaryDataStorage")
            fields.valueTransformerName = string("XD_PAttK_valueTransformerName")
            fields.defaultValueString = string("XD_PAttK_defaultValueAsString")
            return .attribute(Attribute(location: location, fields: fields))
        case "XDPMRelationship":
            var fields = Relationship.Fields(name: name)
            fields.isOptional = flag("XD_PPSK_isOptional")
            fields.isTransient = flag("XD_PPSK_isTransient")
            fields.versionHashModifier = string("XD_PPSK_versionHashModifier")
            fields.elementID = string("XD_PPSK_elementID")
            fields.destinationEntity = facts["XD_PRK_destination"].flatMap { archive.reference($0, "_default") }.flatMap
            {
                archive.string($0, "_name")
            }
            if let inverse = facts["XD_PRK_inverseRelationship"].flatMap({ archive.reference($0, "_default") }) {
                fields.inverseName = archive.string(inverse, "_name")
                fields.inverseEntity = archive.reference(inverse, "_owner").flatMap { archive.string($0, "_name") }
            }
            fields.maxCount = integer("XD_PRK_maxCount")
            fields.minCount = integer("XD_PRK_minCount")
            fields.isToMany = flag("XD_PRK_isToMany")
            fields.isOrdered = flag("XD_PRK_ordered")
            return .relationship(Relationship(location: location, fields: fields))
        default:
            return nil
        }
    }
}
