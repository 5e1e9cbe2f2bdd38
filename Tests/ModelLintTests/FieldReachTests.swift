import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintRules

/// Every field of an attribute and a relationship reaches each place that must read it: the XML builder sets it,
/// the content fingerprint (the lock file's "was this shipped version edited?") sees it, the diff names a facet
/// for it, and Core Data's entity hash includes it exactly when docs/core-data.md says it does (the
/// expectations below are that document's, not the code's). A field added to `Attribute.Fields` or
/// `Relationship.Fields` fails here until this table says how it reaches each of them.
final class FieldReachTests: XCTestCase {
    struct Row {
        var field: String
        /// The element as written before and after the change of this one field.
        var before: String
        var after: String
        /// The diff's facet for it (nil: the diff reports it another way, named in `otherwise`).
        var facet: PropertyFacet?
        var otherwise: String = ""
        /// In Core Data's entity version hash (docs/core-data.md "The hashes").
        var hashed: Bool
    }

    static let attribute = #"<attribute name="a" optional="YES" attributeType="String""#
    static let attributes: [Row] = [
        Row(
            field: "name", before: attribute + "/>",
            after: #"<attribute name="b" optional="YES" attributeType="String"/>"#, facet: .name, hashed: true),
        Row(
            field: "type", before: attribute + "/>",
            after: #"<attribute name="a" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#,
            facet: .type, hashed: true),
        Row(
            field: "isOptional", before: attribute + "/>", after: #"<attribute name="a" attributeType="String"/>"#,
            facet: .optional, hashed: true),
        Row(
            field: "isTransient", before: attribute + "/>", after: attribute + #" transient="YES"/>"#, facet: nil,
            otherwise: "becameTransient", hashed: true),
        Row(
            field: "defaultValueString", before: attribute + "/>", after: attribute + #" defaultValueString="x"/>"#,
            facet: .defaultValue, hashed: false),
        Row(
            field: "defaultDateTimeInterval", before: #"<attribute name="a" optional="YES" attributeType="Date"/>"#,
            after: #"<attribute name="a" optional="YES" attributeType="Date" defaultDateTimeInterval="5"/>"#,
            facet: .defaultValue, hashed: false),
        Row(
            field: "minValueString", before: attribute + "/>", after: attribute + #" minValueString="1"/>"#,
            facet: .validation, hashed: false),
        Row(
            field: "maxValueString", before: attribute + "/>", after: attribute + #" maxValueString="9"/>"#,
            facet: .validation, hashed: false),
        Row(
            field: "regularExpressionString", before: attribute + "/>",
            after: attribute + #" regularExpressionString="x+"/>"#, facet: .validation, hashed: false),
        Row(
            field: "usesScalarValueType", before: #"<attribute name="a" optional="YES" attributeType="Integer 32"/>"#,
            after: #"<attribute name="a" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#,
            facet: nil, otherwise: "code generation only", hashed: false),
        Row(
            field: "valueTransformerName",
            before: #"<attribute name="a" optional="YES" attributeType="Transformable"/>"#,
            after: #"<attribute name="a" optional="YES" attributeType="Transformable" valueTransformerName="T"/>"#,
            facet: .transformer, hashed: false),
        Row(
            field: "customClassName", before: #"<attribute name="a" optional="YES" attributeType="Transformable"/>"#,
            after: #"<attribute name="a" optional="YES" attributeType="Transformable" customClassName="C"/>"#,
            facet: .customClass, hashed: false),
        Row(
            field: "allowsExternalBinaryDataStorage",
            before: #"<attribute name="a" optional="YES" attributeType="Binary"/>"#,
            after:
                #"<attribute name="a" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>"#,
            facet: .externalStorage, hashed: true),
        Row(
            field: "preserveAfterDeletion", before: attribute + "/>",
            after: attribute + #" preserveAfterDeletion="YES"/>"#, facet: .preserveAfterDeletion, hashed: true),
        Row(
            field: "allowsCloudEncryption", before: attribute + "/>",
            after: attribute + #" allowsCloudEncryption="YES"/>"#, facet: .cloudEncryption, hashed: false),
        Row(
            field: "spotlightIndexingEnabled", before: attribute + "/>",
            after: attribute + #" spotlightIndexingEnabled="YES"/>"#, facet: .spotlight, hashed: false),
        Row(
            field: "isIndexed", before: attribute + "/>", after: attribute + #" indexed="YES"/>"#, facet: .indexed,
            hashed: false),
        Row(
            field: "isDerived", before: attribute + #" derivationExpression="b.count"/>"#,
            after: attribute + #" derived="YES" derivationExpression="b.count"/>"#, facet: .derivation, hashed: true),
        Row(
            field: "derivationExpression", before: attribute + #" derived="YES" derivationExpression="b.count"/>"#,
            after: attribute + #" derived="YES" derivationExpression="c.count"/>"#, facet: .derivation, hashed: true),
        Row(
            field: "elementID", before: attribute + "/>", after: attribute + #" elementID="x"/>"#,
            facet: .renamingIdentifier, hashed: false),
        Row(
            field: "renamingIdentifierAttribute", before: attribute + "/>",
            after: attribute + #" renamingIdentifier="x"/>"#, facet: nil,
            otherwise: "renaming-identifier-xml-attribute (ignored by Core Data)", hashed: false),
        Row(
            field: "versionHashModifier", before: attribute + "/>", after: attribute + #" versionHashModifier="v2"/>"#,
            facet: .hashModifier, hashed: true),
        Row(
            field: "compositeName", before: #"<attribute name="a" optional="YES" attributeType="Composite"/>"#,
            after: #"<attribute name="a" optional="YES" attributeType="Composite" composite="Point"/>"#, facet: nil,
            otherwise: "unverified format", hashed: false),
        Row(
            field: "userInfo", before: attribute + "/>",
            after: attribute + #"><userInfo><entry key="k" value="v"/></userInfo></attribute>"#, facet: .userInfo,
            hashed: false),
    ]

    static let relationship =
        #"<relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Other""#
    static let relationships: [Row] = [
        Row(
            field: "name", before: relationship + "/>",
            after:
                #"<relationship name="s" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Other"/>"#,
            facet: .name, hashed: true),
        Row(
            field: "isOptional", before: relationship + "/>",
            after: #"<relationship name="r" maxCount="1" deletionRule="Nullify" destinationEntity="Other"/>"#,
            facet: .optional, hashed: true),
        Row(
            field: "isTransient", before: relationship + "/>", after: relationship + #" transient="YES"/>"#, facet: nil,
            otherwise: "becameTransient", hashed: true),
        Row(
            field: "isToMany",
            before: #"<relationship name="r" optional="YES" deletionRule="Nullify" destinationEntity="Other"/>"#,
            after:
                #"<relationship name="r" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Other"/>"#,
            facet: .toMany, hashed: false),
        Row(
            field: "isOrdered",
            before:
                #"<relationship name="r" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Other"/>"#,
            after:
                #"<relationship name="r" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Other"/>"#,
            facet: .ordered, hashed: true),
        Row(
            field: "minCount",
            before:
                #"<relationship name="r" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Other"/>"#,
            after:
                #"<relationship name="r" optional="YES" toMany="YES" minCount="2" deletionRule="Nullify" destinationEntity="Other"/>"#,
            facet: .minCount, hashed: true),
        Row(
            field: "maxCount",
            before:
                #"<relationship name="r" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Other"/>"#,
            after:
                #"<relationship name="r" optional="YES" toMany="YES" maxCount="5" deletionRule="Nullify" destinationEntity="Other"/>"#,
            facet: .maxCount, hashed: true),
        Row(
            field: "deleteRule", before: relationship + "/>",
            after:
                #"<relationship name="r" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Other"/>"#,
            facet: .deleteRule, hashed: false),
        Row(
            field: "isIndexed", before: relationship + "/>", after: relationship + #" indexed="YES"/>"#,
            facet: .indexed, hashed: false),
        Row(
            field: "destinationEntity", before: relationship + "/>",
            after:
                #"<relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Third"/>"#,
            facet: .destination, hashed: true),
        Row(
            field: "inverseName", before: relationship + "/>", after: relationship + #" inverseName="back"/>"#,
            facet: .inverse, hashed: true),
        Row(
            field: "inverseEntity", before: relationship + #" inverseName="back" inverseEntity="Other"/>"#,
            after: relationship + #" inverseName="back" inverseEntity="Third"/>"#, facet: nil,
            otherwise:
                "redundant: Core Data takes the inverse from the destination entity; one that disagrees is inverse-mismatch's",
            hashed: false),
        Row(
            field: "elementID", before: relationship + "/>", after: relationship + #" elementID="x"/>"#,
            facet: .renamingIdentifier, hashed: false),
        Row(
            field: "renamingIdentifierAttribute", before: relationship + "/>",
            after: relationship + #" renamingIdentifier="x"/>"#, facet: nil,
            otherwise: "renaming-identifier-xml-attribute (ignored by Core Data)", hashed: false),
        Row(
            field: "versionHashModifier", before: relationship + "/>",
            after: relationship + #" versionHashModifier="v2"/>"#, facet: .hashModifier, hashed: true),
        Row(
            field: "userInfo", before: relationship + "/>",
            after: relationship + #"><userInfo><entry key="k" value="v"/></userInfo></relationship>"#, facet: .userInfo,
            hashed: false),
    ]

    func model(_ element: String) throws -> Model {
        let xml =
            RuleExample.modelHeader
            + "\n<entity name=\"Item\">\(element)</entity><entity name=\"Other\"/><entity name=\"Third\"/>\n</model>\n"
        guard case .model(let model) = ContentsParser.parse(data: Data(xml.utf8), path: "contents") else {
            throw XCTSkip("unparsable: \(element)")
        }
        return model
    }

    func fieldValues<T>(_ fields: T) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: fields).children.map {
                ($0.label ?? "?", String(reflecting: $0.value))
            })
    }

    func check(_ rows: [Row], fields: (Property) -> [String: String]) throws {
        for row in rows {
            let old = try model(row.before)
            let new = try model(row.after)
            let a = try XCTUnwrap(old.entities.first?.properties.first, row.field)
            let b = try XCTUnwrap(new.entities.first?.properties.first, row.field)
            // The builder sets the field (and no field but those the spelling implies).
            XCTAssertNotEqual(
                fields(a)[row.field], fields(b)[row.field], "\(row.field): the builder does not read \(row.after)")
            XCTAssertNotEqual(
                Fingerprint.propertyContent(a, formatOne: false), Fingerprint.propertyContent(b, formatOne: false),
                "\(row.field): not in the content fingerprint")
            let facets = ModelDiff.propertyFacets(a, b, old: old, new: new)
            if let facet = row.facet {
                XCTAssertTrue(facets.contains(facet), "\(row.field): the diff names \(facets), not \(facet)")
            } else {
                XCTAssertFalse(row.otherwise.isEmpty, "\(row.field): no facet, and no other way named")
            }
            let hashBefore = old.versionHashes.entities["Item"]
            let hashAfter = new.versionHashes.entities["Item"]
            XCTAssertEqual(
                hashBefore != hashAfter, row.hashed,
                "\(row.field): \(row.hashed ? "must" : "must not") change Core Data's entity hash")
        }
    }

    /// Fields no XML spelling has, set only by the Swift reader. An evaluated default reaches the diff and makes a
    /// default, but not the content fingerprint: lock files recorded SwiftData schemas before it was read, and their
    /// digests must still verify.
    static let swiftOnlyAttributeFields = ["defaultExpression"]

    func testAnEvaluatedDefaultReachesTheDiffButNeitherTheFingerprintNorTheHash() throws {
        let plain = try model(#"<attribute name="a" attributeType="Binary"/>"#)
        var evaluated = plain
        guard case .attribute(var a) = evaluated.entities[0].properties[0] else { return XCTFail("no attribute") }
        a.fields = a.fields.with { $0.defaultExpression = "Data ( )" }
        XCTAssertTrue(a.hasDefault)
        evaluated.entities[0].properties[0] = .attribute(a)
        let p = plain.entities[0].properties[0]
        let q = evaluated.entities[0].properties[0]
        XCTAssertEqual(
            Fingerprint.propertyContent(p, formatOne: false), Fingerprint.propertyContent(q, formatOne: false))
        XCTAssertTrue(ModelDiff.propertyFacets(p, q, old: plain, new: evaluated).contains(.defaultValue))
        XCTAssertEqual(plain.versionHashes.entities, evaluated.versionHashes.entities)
    }

    func testEveryAttributeFieldReachesTheBuilderFingerprintDiffAndHash() throws {
        let declared = Set(Mirror(reflecting: Attribute.Fields(name: "a", type: .string)).children.compactMap(\.label))
        XCTAssertEqual(
            declared, Set(Self.attributes.map(\.field) + Self.swiftOnlyAttributeFields),
            "a field of Attribute.Fields is missing from this table, or the table names one that is gone")
        try check(Self.attributes) { property in
            guard case .attribute(let a) = property else { return [:] }
            return fieldValues(a.fields.value)
        }
    }

    func testEveryRelationshipFieldReachesTheBuilderFingerprintDiffAndHash() throws {
        let declared = Set(Mirror(reflecting: Relationship.Fields(name: "r")).children.compactMap(\.label))
        XCTAssertEqual(
            declared, Set(Self.relationships.map(\.field)),
            "a field of Relationship.Fields is missing from this table, or the table names one that is gone")
        try check(Self.relationships) { property in
            guard case .relationship(let r) = property else { return [:] }
            return fieldValues(r.fields.value)
        }
    }
}
