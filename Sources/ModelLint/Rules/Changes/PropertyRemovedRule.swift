public struct PropertyRemovedRule: ChangeRule {
    public init() {}
    public static let judgesEachPairAlone = true

    public static let description = RuleDescription(
        id: "property-removed", category: .changes, severity: .warning,
        summary: "a persistent property is gone: its data is dropped on every device",
        rationale: """
            A persistent property of the older version that matches nothing in the newer one is dropped with its data \
            when the store migrates. If it was renamed, the new property needs the old identifier as its Renaming ID; \
            if it is being retired, the data should have been copied by an interim build first.
            """,
        fix: "confirm it is retired (declare it in `retired` in .modellint.json), or rename with a renaming identifier (`elementID`)",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                        ↓<attribute name="payload" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="title" optional="YES" attributeType="String"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="payload" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="payloadBlob" optional="YES" attributeType="Binary" elementID="payload"/>
                    </entity>
                    """),
        ])

    public func check(_ diff: ModelDiff, context: RuleContext) -> [Finding] {
        diff.matchedEntities.flatMap { entity in
            entity.removedProperties.compactMap { property in
                let retired = context.retired.contains { $0.entity == entity.old.name && $0.property == property.name }
                guard !retired else { return nil }
                return .change(
                    "\(entity.old.name).\(property.name) (\(property.kindName)) was removed \(diff.between) \(diff.newerFileNote): its data is dropped on every device",
                    entity: entity.old, property: property)
            }
        }
    }
}
