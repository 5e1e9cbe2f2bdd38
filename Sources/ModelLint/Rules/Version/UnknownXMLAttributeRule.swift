import ModelLintSupport
import ModelLintModel

package struct UnknownXMLAttributeRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "unknown-xml-attribute", category: .singleVersion, severity: .warning,
        summary: "an XML attribute or element that Core Data's model format does not have",
        rationale: """
            The model compiler ignores what it does not know. An unknown attribute is usually a typo (`optonal`) or a \
            hand edit that was meant to change the schema and silently does not, so the model you read is not the \
            model the app runs.
            """,
        fix:
            "if it is a typo or a hand edit, remove it or correct it (the message names the closest name the format has) and set the field in Xcode's model editor; if Xcode itself wrote it, modellint's vocabulary lacks it: please report it, and silence the rule meanwhile",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    ↓<attribute name="title" optonal="YES" attributeType="String"/>
                </entity>
                """),
            .triggering(
                """
                <entity name="Thing">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    ↓<index name="byTitle"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Thing" representedClassName="Thing" syncable="YES" codeGenerationType="class">
                    <attribute name="title" optional="YES" attributeType="String" defaultValueString="" syncable="YES"/>
                    <userInfo>
                        <entry key="note" value="kept"/>
                    </userInfo>
                </entity>
                <elements>
                    <element name="Thing" positionX="-63" positionY="-18" width="128" height="44"/>
                </elements>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        model.unknownXML.map { item in
            let subject = [item.entity, item.property].compactMap { $0 }.joined(separator: ".")
            let on = subject.isEmpty ? "" : " (on \(subject))"
            let known =
                item.kind == .attribute
                ? XMLVocabulary.attributes[item.element] ?? [] : XMLVocabulary.children[item.element] ?? []
            let suggestion =
                Spelling.closest(to: item.name, in: known.sorted()).map { ", perhaps a misspelling of \($0)" } ?? ""
            switch item.kind {
            case .attribute:
                return Finding(
                    "\(item.name) is not an attribute of <\(item.element)> in Core Data's model format\(on)\(suggestion): the model compiler ignores it",
                    at: item.location, entity: item.entity, property: item.property)
            case .element:
                return Finding(
                    "<\(item.name)> is not an element Core Data's model format allows inside <\(item.element)>\(on)\(suggestion): the model compiler ignores it",
                    at: item.location, entity: item.entity, property: item.property)
            }
        }
    }
}
