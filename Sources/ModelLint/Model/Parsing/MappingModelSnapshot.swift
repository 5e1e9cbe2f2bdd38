import Foundation
import ModelLintSupport

/// A model an `.xcmappingmodel` embeds (`sourcemodeldata`, `destinationmodeldata`): the mapping editor's copy of the
/// version it was made from, as a keyed archive of Xcode's own editor classes (XDPMModel, XDPMEntity,
/// XDPMAttribute, XDPMRelationship), not of a compiled model. Each element's facts are the default values of its
/// stereotype's attributes (`XD_PSK_isAbstract`, `XD_PPSK_isOptional`, `XD_PAttK_attributeType`,
/// `XD_PRK_destination`, …). Xcode compiles the mapping model's entity hashes from these copies, so they, not the
/// path names written beside them, decide which versions the mapping model maps.
package enum MappingModelSnapshot {
    /// Hashed facts the archive does not record (none of the Xcode versions seen writes a key for them): a version
    /// that uses one is compared with it cleared, and the match says so.
    package static let unrecordedHashedFacts = ["preserveAfterDeletion", "derived attributes"]

    package struct ReadError: Error, Equatable, CustomStringConvertible {
        package var description: String
    }

    /// The base64 text of `<attribute name="NAME" …>…</attribute>` in an `xcmapping.xml`, decoded.
    package static func embeddedArchive(_ name: String, in xml: [UInt8]) -> [UInt8]? {
        guard let text = embeddedText(name, in: xml) else { return nil }
        // The encoded text is read in place: a copy of it would be as many fresh pages again (megabytes).
        return xml.withUnsafeBufferPointer { Base64.decode(UnsafeBufferPointer(rebasing: $0[text])) }
    }

    /// Where the text of `<attribute name="NAME" …>…</attribute>` stands in an `xcmapping.xml`.
    package static func embeddedText(_ name: String, in xml: [UInt8]) -> Range<Int>? {
        guard let start = ByteSearch.firstIndex(of: Array("name=\"\(name)\"".utf8), in: xml),
            let open = ByteSearch.firstIndex(of: UInt8(ascii: ">"), in: xml, from: start),
            let close = ByteSearch.firstIndex(of: UInt8(ascii: "<"), in: xml, from: open + 1)
        else { return nil }
        return (open + 1)..<close
    }

    /// The snapshot as a model graph: entities, their parents, attributes and relationships with every fact the
    /// archive records that Core Data hashes.
    /// `hashCache`: where the model's hashes are kept (one shared by the embedded models of a run).
    package static func model(
        archive bytes: [UInt8], displayPath: String, hashCache: CoreDataHashCache = CoreDataHashCache()
    ) throws -> Model {
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
                fields.isAbstract = facts[.isAbstract].flatMap { archive.bool($0, "_default") } ?? false
                fields.versionHashModifier = facts[.entityHashModifier].flatMap {
                    archive.string($0, "_default")
                }
                fields.elementID = facts[.entityElementID].flatMap { archive.string($0, "_default") }
                if let generalizations = archive.reference(entity, "XDBucketForGeneralizationsstorage") {
                    fields.parentEntity =
                        archive.members(generalizations).lazy.compactMap {
                            archive.reference($0, "_general").flatMap { archive.string($0, "_name") }
                        }.first
                }
                if let constraints = facts[.uniquenessConstraints].flatMap({ archive.reference($0, "_default") }) {
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
            return Model(
                location: location, header: [:], entities: entities, configurations: [], fetchRequests: [],
                composites: [], unknownXML: [], entitySourceHashes: [], hashCache: hashCache)
        } catch let exceeded as WorkBudget.Exceeded {
            throw ReadError(description: "\(displayPath): \(exceeded)")
        }
    }

    /// The stereotype attributes an element's facts are read from, by their keys in the archive.
    private enum Fact: String {
        case isAbstract = "XD_PSK_isAbstract"
        case entityHashModifier = "XD_PSK_versionHashModifier"
        case entityElementID = "XD_PSK_elementID"
        case uniquenessConstraints = "XDPMUniquenessConstraints"
        case isOptional = "XD_PPSK_isOptional"
        case isTransient = "XD_PPSK_isTransient"
        case propertyHashModifier = "XD_PPSK_versionHashModifier"
        case propertyElementID = "XD_PPSK_elementID"
        case attributeType = "XD_PAttK_attributeType"
        case allowsExternalStorage = "XD_PAttK_allowsExternalBinaryDataStorage"
        case valueTransformerName = "XD_PAttK_valueTransformerName"
        case defaultValue = "XD_PAttK_defaultValueAsString"
        case destination = "XD_PRK_destination"
        case inverseRelationship = "XD_PRK_inverseRelationship"
        case maxCount = "XD_PRK_maxCount"
        case minCount = "XD_PRK_minCount"
        case isToMany = "XD_PRK_isToMany"
        case ordered = "XD_PRK_ordered"
    }

    /// An element's stereotype attributes (`XD_PPSK_isOptional` -> the attribute object holding the value as its
    /// `_default`), for the facts read; the first of a repeated key counts.
    private struct StereotypeValues {
        /// A few per element: looked through, not hashed.
        var values: [(fact: Fact, object: Int)] = []

        init(_ element: Int, in archive: KeyedArchive, keys: FactKeyObjects) {
            guard let stereotypes = archive.reference(element, "XDBucketForStereotypesstorage") else { return }
            for (_, stereotype) in archive.entries(stereotypes) {
                guard let owned = archive.reference(stereotype, "XDBucketForOwnedAttributesstorage") else { continue }
                for (key, value) in archive.entries(owned) {
                    if let fact = keys.fact(keyedBy: key), !values.contains(where: { $0.fact == fact }) {
                        values.append((fact, value))
                    }
                }
            }
        }

        subscript(fact: Fact) -> Int? { values.first { $0.fact == fact }?.object }
    }

    /// Which fact each archived key object names, each object's text read once: every element's stereotype
    /// attributes are keyed by the same few dozen archived strings.
    private final class FactKeyObjects {
        let archive: KeyedArchive
        /// By archived object: nil until read, then the fact it names, if any (looked up tens of thousands of times:
        /// an array, not a dictionary).
        private var facts: [Fact??]

        init(_ archive: KeyedArchive) {
            self.archive = archive
            facts = Array(repeating: nil, count: archive.archived.count)
        }

        func fact(keyedBy object: Int) -> Fact? {
            guard facts.indices.contains(object) else { return archive.text(object).flatMap(Fact.init(rawValue:)) }
            if let known = facts[object] { return known }
            let fact = archive.text(object).flatMap(Fact.init(rawValue:))
            facts[object] = .some(fact)
            return fact
        }
    }

    private static func property(
        _ object: Int, in archive: KeyedArchive, keys: FactKeyObjects, location: SourceLocation
    )
        -> Property?
    {
        guard let name = archive.string(object, "_name") else { return nil }
        let facts = StereotypeValues(object, in: archive, keys: keys)
        func flag(_ fact: Fact) -> Bool { facts[fact].flatMap { archive.bool($0, "_default") } ?? false }
        func string(_ fact: Fact) -> String? { facts[fact].flatMap { archive.string($0, "_default") } }
        func integer(_ fact: Fact) -> Int? {
            facts[fact].flatMap { archive.integer($0, "_default") }.map { Int(clamping: $0) }
        }
        switch archive.className(object) {
        case "XDPMAttribute":
            let code = integer(.attributeType) ?? 0
            var fields = Attribute.Fields(
                name: name,
                type: AttributeType.known.first { CoreDataHash.typeCode($0) == UInt32(truncatingIfNeeded: code) }
                    ?? .undefined)
            fields.isOptional = flag(.isOptional)
            fields.isTransient = flag(.isTransient)
            fields.versionHashModifier = string(.propertyHashModifier)
            fields.elementID = string(.propertyElementID)
            fields.allowsExternalBinaryDataStorage = flag(.allowsExternalStorage)
            fields.valueTransformerName = string(.valueTransformerName)
            fields.defaultValueString = string(.defaultValue)
            return .attribute(Attribute(location: location, fields: fields))
        case "XDPMRelationship":
            var fields = Relationship.Fields(name: name)
            fields.isOptional = flag(.isOptional)
            fields.isTransient = flag(.isTransient)
            fields.versionHashModifier = string(.propertyHashModifier)
            fields.elementID = string(.propertyElementID)
            fields.destinationEntity = facts[.destination].flatMap { archive.reference($0, "_default") }.flatMap {
                archive.string($0, "_name")
            }
            if let inverse = facts[.inverseRelationship].flatMap({ archive.reference($0, "_default") }) {
                fields.inverseName = archive.string(inverse, "_name")
                fields.inverseEntity = archive.reference(inverse, "_owner").flatMap { archive.string($0, "_name") }
            }
            fields.maxCount = integer(.maxCount)
            fields.minCount = integer(.minCount)
            fields.isToMany = flag(.isToMany)
            fields.isOrdered = flag(.ordered)
            return .relationship(Relationship(location: location, fields: fields))
        default:
            return nil
        }
    }
}
