import ModelLintModel
import ModelLintSupport
import ModelLintDiff

package struct RequiredAttributeWithoutDefaultRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "required-attribute-without-default", category: .changes, severity: .error,
        summary: "a non-optional attribute with no default that older stores have no value for",
        rationale: """
            A required attribute added to an existing entity, made non-optional, or made persistent has no value in \
            the rows older versions wrote. Inference succeeds, then the store fails to open (134110) on every device \
            that has rows. A test on an empty store passes, which is why this ships.
            """,
        fix: "give it a default value, or keep it optional, or fill the values in a custom migration stage",
        swiftDataFix: "give it a default in its declaration (`var count: Int = 0`), or keep it optional; "
            + customStage,
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        <attribute name="rank" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        ↓<attribute name="rank" attributeType="Integer 32" usesScalarValueType="YES"/>
                        ↓<attribute name="createdAt" attributeType="Date" usesScalarValueType="NO"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="title" attributeType="String" defaultValueString=""/>
                        <attribute name="createdAt" attributeType="Date" defaultDateTimeInterval="0" usesScalarValueType="NO"/>
                        <attribute name="note" optional="YES" attributeType="String"/>
                    </entity>
                    <entity name="Brand">
                        <attribute name="name" attributeType="String"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        var findings: [ChangeFinding] = []
        for case .attribute(let attribute) in entity.addedProperties
        where !attribute.isOptional && !attribute.hasDefault && !attribute.isDerived {
            var finding = ChangeFinding.change(
                "\(entity.new.name).\(attribute.name) is required, has no default, and was added to existing entity \(entity.new.name) \(versions.between): the store fails to open on any device with \(entity.new.name) rows (an empty test store passes)",
                entity: entity.new, property: .attribute(attribute), failsToOpenStore: true)
            finding.swiftDataFix = Self.swiftDataFix(attribute)
            findings.append(finding)
        }
        for pair in entity.changedProperties {
            guard let old = pair.oldAttribute, let new = pair.newAttribute, old.isOptional, !new.isOptional,
                !new.hasDefault, !new.isDerived
            else { continue }
            var finding = ChangeFinding.change(
                "\(pair.label) became required without a default \(versions.between): rows where it is empty make the store fail to open",
                entity: entity.new, property: pair.new, failsToOpenStore: true)
            finding.swiftDataFix = Self.swiftDataFix(new)
            findings.append(finding)
        }
        return findings
    }

    /// The fix in Swift, naming the property as its declaration would (`var streak: Int = 0`): the type SwiftData
    /// stores as the attribute's type, and a default of that type where one goes without saying.
    package static func swiftDataFix(_ attribute: Attribute) -> String? {
        let declared: (type: String, value: String?)? =
            switch attribute.type {
            case .integer16: ("Int16", "0")
            case .integer32: ("Int32", "0")
            case .integer64: ("Int", "0")
            case .double: ("Double", "0")
            case .float: ("Float", "0")
            case .decimal: ("Decimal", "0")
            case .string: ("String", "\"\"")
            case .boolean: ("Bool", "false")
            case .date: ("Date", ".now")
            case .binary: ("Data", "Data()")
            case .uuid: ("UUID", "UUID()")
            case .uri: ("URL", nil)
            default: nil
            }
        guard let declared else { return nil }
        let name = ReportText.shortenedName(attribute.name)
        let withDefault =
            declared.value.map { "give it a default in its declaration (`var \(name): \(declared.type) = \($0)`), or " }
            ?? ""
        return "\(withDefault)keep it optional (`var \(name): \(declared.type)?`); " + customStage
    }

    /// Why a `.custom` stage is no way out, and what is: the end of every SwiftData fix of this rule.
    private static let customStage =
        "a `.custom` stage cannot fill a property its older schema lacks (its handlers run before and after an inferred migration): add it optional, then make it required in a later schema whose `.custom` stage fills the empty values in `willMigrate`"
}
