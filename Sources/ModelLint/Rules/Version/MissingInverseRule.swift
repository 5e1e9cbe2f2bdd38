import ModelLintModel

package struct MissingInverseRule: EntityRule {
    package init() {}

    package static let readsOnlyItsEntity = true

    package static let description = RuleDescription(
        id: "missing-inverse", category: .singleVersion, severity: .warning,
        summary: "a relationship with no inverse",
        rationale: """
            Without an inverse, Core Data cannot keep the other side of the relationship consistent: deleting an object \
            leaves dangling references behind, and with a Cascade delete rule the related objects can survive the delete. \
            Apple's documentation asks for an inverse on every relationship.
            """,
        fix: "add the inverse relationship on the destination entity and set both `inverseName`s",
        swiftDataFix:
            "add the inverse property on the destination model (`var owner: A?`) and name it on one side: `@Relationship(inverse: \\B.owner)`",
        examples: [
            .triggering(
                """
                <entity name="Owner">
                    ↓<relationship name="things" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Thing"/>
                </entity>
                <entity name="Thing"/>
                """),
            .passing(
                """
                <entity name="Owner">
                    <relationship name="things" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
                </entity>
                <entity name="Thing">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="things" inverseEntity="Owner"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        entity.relationships.compactMap { relationship in
            guard relationship.inverseName?.isEmpty ?? true else { return nil }
            let cascade =
                relationship.deleteRule == .cascade
                ? "; with its Cascade delete rule, the related objects can survive the delete" : ""
            return Finding(
                "\(entity.name).\(relationship.name) has no inverse\(cascade)",
                at: relationship.location, entity: entity.name, property: relationship.name)
        }
    }
}
