import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands
import ModelLintGather

final class ParserTests: XCTestCase {
    private func parse(_ text: String) -> VersionContent {
        ContentsParser.parse(data: Data(text.utf8), path: "M.xcdatamodel/contents")
    }

    private func model(_ body: String) throws -> Model {
        guard case .model(let m) = parse(RuleExample.modelHeader + "\n" + body + "\n</model>\n") else {
            XCTFail("not parsed")
            throw XCTSkip()
        }
        return m
    }

    private func reason(_ content: VersionContent) -> String? {
        if case .malformed(let reason, _) = content { return reason }
        return nil
    }

    func testTypedValuesAndDefaults() throws {
        let m = try model(
            """
            <entity name="Thing" representedClassName="Thing" parentEntity="Base" isAbstract="YES" elementID="OldThing" versionHashModifier="2" codeGenerationType="class">
                <attribute name="count" attributeType="Integer 64" defaultValueString="3" usesScalarValueType="YES"/>
                <attribute name="blob" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES"/>
                <attribute name="shape" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                <attribute name="cached" optional="YES" transient="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" ordered="YES" minCount="1" maxCount="5" deletionRule="No Action" destinationEntity="Item" inverseName="thing" inverseEntity="Item"/>
                <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Owner"/>
                <fetchedProperty name="recent" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Item" predicateString="thing == $FETCH_SOURCE"/>
                </fetchedProperty>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="count"/>
                        <constraint value="owner"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
                <fetchIndex name="byCount">
                    <fetchIndexElement property="count" type="Binary" order="ascending"/>
                </fetchIndex>
                <userInfo>
                    <entry key="spDisableSync" value="YES"/>
                </userInfo>
            </entity>
            <entity name="Base" isAbstract="YES"/>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="Thing"/>
            </configuration>
            """)
        let thing = try XCTUnwrap(m.entity(named: "Thing"))
        XCTAssertEqual(thing.parentEntity, "Base")
        XCTAssertTrue(thing.isAbstract)
        XCTAssertEqual(thing.renamingIdentifier, "OldThing")
        XCTAssertEqual(thing.versionHashModifier, "2")
        let attributes = thing.attributes
        XCTAssertEqual(attributes.map(\.name), ["count", "blob", "shape", "cached"])
        XCTAssertEqual(attributes[0].type, .integer64)
        XCTAssertFalse(attributes[0].isOptional, "a missing optional means non-optional")
        XCTAssertEqual(attributes[0].defaultValueString, "3")
        XCTAssertTrue(attributes[1].allowsExternalBinaryDataStorage)
        XCTAssertTrue(attributes[1].preserveAfterDeletion)
        XCTAssertEqual(attributes[2].valueTransformerName, "NSSecureUnarchiveFromData")
        XCTAssertEqual(attributes[2].customClassName, "[String]")
        XCTAssertTrue(attributes[3].isTransient)
        let items = thing.relationships[0]
        XCTAssertTrue(items.isToMany)
        XCTAssertTrue(items.isOrdered)
        XCTAssertEqual(items.minCount, 1)
        XCTAssertEqual(items.maxCount, 5)
        XCTAssertEqual(items.deleteRule, .noAction)
        XCTAssertEqual(thing.relationships[1].deleteRule, .deny)
        XCTAssertFalse(thing.relationships[1].isOptional)
        XCTAssertEqual(thing.fetchedProperties.first?.fetchRequest?.entity, "Item")
        XCTAssertEqual(thing.uniquenessConstraints.map(\.properties), [["count", "owner"]])
        XCTAssertEqual(thing.fetchIndexes.first?.elements.first?.property, "count")
        XCTAssertEqual(thing.userInfo, [UserInfoEntry(key: "spDisableSync", value: "YES")])
        XCTAssertEqual(m.configurations.first?.usedWithCloudKit, true)
        XCTAssertEqual(m.configurations.first?.members.map(\.entity), ["Thing"])
        XCTAssertEqual(m.unknownXML, [])
    }

    func testValuesPrintTheirFieldsAndCompareByThem() {
        // The fuzzer's differential check compares printed models: shared fields must print as content.
        var attribute = Attribute(name: "title", location: SourceLocation(file: "c", line: 3, column: 5), type: .string)
        attribute.defaultValueString = "Untitled"
        XCTAssertTrue(
            String(describing: attribute).contains(#"defaultValueString: Optional("Untitled")"#),
            String(describing: attribute))
        XCTAssertFalse(String(describing: attribute).contains("SharedFields"))
        var same = Attribute(name: "title", location: SourceLocation(file: "c", line: 3, column: 5), type: .string)
        XCTAssertNotEqual(attribute, same)
        same.defaultValueString = "Untitled"
        XCTAssertEqual(attribute, same)
        XCTAssertEqual(attribute.hashValue, same.hashValue)
    }

    func testLocationsPointAtTheElementStartEvenForMultiLineTags() throws {
        let m = try model(
            """
            <entity name="Thing">
                <attribute name="a" optional="YES" attributeType="String"/><attribute name="b" optional="YES" attributeType="String"/>
                <relationship name="c"
                    optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing"/>
            </entity>
            """)
        let thing = try XCTUnwrap(m.entity(named: "Thing"))
        // Header is two lines; the body starts on line 3.
        XCTAssertEqual(thing.location, SourceLocation(file: "M.xcdatamodel/contents", line: 3, column: 1))
        XCTAssertEqual(thing.properties.map { "\($0.location.line!):\($0.location.column!)" }, ["4:5", "4:64", "5:5"])
    }

    func testResolvedInheritanceAndInverses() throws {
        let m = try model(
            """
            <entity name="Base" isAbstract="YES">
                <attribute name="id" attributeType="String"/>
            </entity>
            <entity name="Thing" parentEntity="Base">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="things" inverseEntity="Owner"/>
            </entity>
            <entity name="Owner">
                <relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
            </entity>
            """)
        let thing = try XCTUnwrap(m.entity(named: "Thing"))
        XCTAssertEqual(
            m.effectiveProperties(of: thing).map { "\($0.declaredBy).\($0.property.name)" }, ["Base.id", "Thing.owner"])
        XCTAssertEqual(m.root(of: thing).name, "Base")
        XCTAssertEqual(m.inverse(of: thing.relationships[0])?.name, "things")
        XCTAssertEqual(m.descendants(of: try XCTUnwrap(m.entity(named: "Base"))).map(\.name), ["Thing"])
    }

    func testUnknownAttributesAndElementsAreKeptWithLocations() throws {
        let m = try model(
            """
            <entity name="Thing" colour="red">
                <attribute name="a" optonal="YES" attributeType="String"/>
                <index name="x"><deeper/></index>
            </entity>
            """)
        XCTAssertEqual(
            m.unknownXML.map {
                "\($0.kind) \($0.name) on \($0.element) at \($0.location.line!):\($0.location.column!)"
            },
            [
                "attribute colour on entity at 3:1",
                "attribute optonal on attribute at 4:5",
                "element index on entity at 5:5",
            ])
    }

    func testRenamingIdentifierIsCapturedNotUnknown() throws {
        let m = try model(
            """
            <entity name="Thing">
                <attribute name="b" optional="YES" attributeType="String" renamingIdentifier="a"/>
            </entity>
            """)
        XCTAssertEqual(m.entities[0].attributes[0].renamingIdentifierAttribute, "a")
        XCTAssertEqual(m.entities[0].attributes[0].renamingIdentifier, "b", "the compiler ignores the XML attribute")
        XCTAssertEqual(m.unknownXML, [])
    }

    func testHeaderVariantsFromOldXcode() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model userDefinedModelVersionIdentifier="" type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="1811" systemVersion="11D50" minimumToolsVersion="Xcode 4.3" macOSVersion="Automatic" iOSVersion="Automatic">
                <entity name="Thing" syncable="YES"/>
            </model>
            """
        guard case .model(let m) = parse(text) else { return XCTFail("not parsed") }
        XCTAssertEqual(m.unknownXML, [])
        XCTAssertEqual(m.header["minimumToolsVersion"], "Xcode 4.3")
    }

    func testCompositeAttributesAreAccepted() throws {
        let m = try model(
            """
            <entity name="Thing">
                <attribute name="where" optional="YES" attributeType="Composite" composite="Location"/>
            </entity>
            <composite name="Location">
                <attribute name="lat" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
            </composite>
            """)
        XCTAssertEqual(m.entities[0].attributes[0].type, .composite)
        XCTAssertEqual(m.entities[0].attributes[0].compositeName, "Location")
        XCTAssertEqual(m.composites, ["Location"])
        XCTAssertEqual(m.unknownXML, [])
    }

    func testBadInputIsMalformedWithAReason() {
        XCTAssertEqual(reason(parse("")), "the file is empty")
        XCTAssertEqual(reason(parse("  \n")), "the file is empty")
        XCTAssertEqual(
            reason(parse("<?xml version=\"1.0\"?>\n<plist/>")), "its root element is <plist>, not a Core Data <model>")
        XCTAssertEqual(
            reason(parse("<?xml version=\"1.0\"?>\n<model><entity name=\"A\"></model>")),
            "it is not well-formed XML (a closing tag that does not match its opening tag, libxml2 code 76)")
        XCTAssertNotNil(reason(parse("<model>\u{0}</model>")))
        XCTAssertNotNil(
            reason(
                ContentsParser.parse(
                    data: Data([
                        0x3C, 0x6D, 0x6F, 0x64, 0x65, 0x6C, 0x3E, 0xFF, 0xFE, 0x3C, 0x2F, 0x6D, 0x6F, 0x64, 0x65, 0x6C,
                        0x3E,
                    ]), path: "x")))
        XCTAssertNotNil(
            reason(
                ContentsParser.parse(
                    data: Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0x00, 0x01, 0xD4]), path: "x")))
    }

    func testDTDsAreRefusedBeforeExpansion() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE model [
              <!ENTITY a "aaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
            ]>
            <model><entity name="&c;"/></model>
            """
        guard case .malformed(let why, let location) = parse(laughs) else { return XCTFail("accepted a DTD") }
        XCTAssertTrue(why.hasPrefix("it declares a DTD or entities (<!DOCTYPE)"), why)
        XCTAssertEqual(location.line, 2)
        XCTAssertEqual(location.column, 1)
        let xxe =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE model [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<model><entity name=\"&x;\"/></model>"
        XCTAssertNotNil(reason(parse(xxe)))
    }
}
