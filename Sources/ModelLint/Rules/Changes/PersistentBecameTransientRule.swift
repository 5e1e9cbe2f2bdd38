import ModelLintModel
import ModelLintDiff

package struct PersistentBecameTransientRule: EntityPairRule {
    package init() {}

    package static let description = RuleDescription(
        id: "persistent-became-transient", category: .changes, severity: .warning,
        summary: "a stored property became transient: its data is dropped",
        rationale: """
            Transient properties take no part in migration: a stored property made transient is dropped from the \
            store with its data, exactly like a removal.
            """,
        fix: "keep it persistent until its data has been copied elsewhere by a shipped build",
        examples: [
            .triggering(
                before: """
                    <entity name="Thing">
                        <attribute name="cache" optional="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        ↓<attribute name="cache" optional="YES" transient="YES" attributeType="Binary"/>
                    </entity>
                    """),
            .passing(
                before: """
                    <entity name="Thing">
                        <attribute name="cache" optional="YES" transient="YES" attributeType="Binary"/>
                    </entity>
                    """,
                after: """
                    <entity name="Thing">
                        <attribute name="cache" optional="YES" attributeType="Binary"/>
                    </entity>
                    """),
        ])

    package func check(_ entity: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding] {
        entity.becameTransient.map { pair in
            .change(
                "\(pair.label) became transient \(versions.between): its stored data is dropped on every device",
                entity: entity.new, property: pair.new)
        }
    }
}
