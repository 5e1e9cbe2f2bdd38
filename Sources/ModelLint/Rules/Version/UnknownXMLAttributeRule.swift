public struct UnknownXMLAttributeRule: VersionRule {
    public init() {}

    public static let description = RuleDescription(
        id: "unknown-xml-attribute", category: .singleVersion, severity: .warning,
        summary: "an XML attribute or element that Core Data's model format does not have",
        rationale: """
            The model compiler ignores what it does not know. An unknown attribute is usually a typo (`optonal`) or a \
            hand edit that was meant to change the schema and silently does not, so the model you read is not the \
            model the app runs.
            """,
        fix: "remove it, or correct it to the attribute Xcode writes (open the model in Xcode and set the field there)",
        examples: [
            .triggering("""
                <entity name="Thing">
                    ↓<attribute name="title" optonal="YES" attributeType="String"/>
                </entity>
                """),
            .triggering("""
                <entity name="Thing">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    ↓<index name="byTitle"/>
                </entity>
                """),
            .passing("""
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

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        model.unknownXML.map { item in
            switch item.kind {
            case .attribute:
                return Finding(
                    "\(item.name) is not an attribute of <\(item.element)> in Core Data's model format; the model compiler ignores it",
                    at: item.location)
            case .element:
                return Finding(
                    "<\(item.name)> is not an element Core Data's model format allows inside <\(item.element)>; the model compiler ignores it",
                    at: item.location)
            }
        }
    }
}
