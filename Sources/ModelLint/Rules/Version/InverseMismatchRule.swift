import ModelLintModel

package struct InverseMismatchRule: EntityRule {
    package init() {}

    package static let description = RuleDescription(
        id: "inverse-mismatch", category: .singleVersion, severity: .error,
        summary: "an `inverseName` that does not exist on the destination, or whose relationship does not point back",
        rationale: """
            Core Data keeps both sides of a relationship in step through the inverse. An inverse that is missing on the \
            destination, or that points at a third entity or relationship, makes the model fail to load or leaves the \
            object graph inconsistent after every save.
            """,
        fix:
            "make the two relationships name each other: A.r has inverse B.s, and B.s has destination A and inverse A.r",
        swiftDataFix:
            "make the two relationships name each other: `@Relationship(inverse: \\B.s)` on A.r, where B.s is of type `A?` or `[A]`",
        examples: [
            .triggering(
                """
                <entity name="Owner">
                    ↓<relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="holder" inverseEntity="Thing"/>
                </entity>
                <entity name="Thing">
                    ↓<relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="things" inverseEntity="Owner"/>
                </entity>
                """),
            .triggering(
                """
                <entity name="Owner">
                    ↓<relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
                    <relationship name="other" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
                </entity>
                <entity name="Thing">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="other" inverseEntity="Owner"/>
                </entity>
                """),
            .passing(
                """
                <entity name="Owner">
                    <relationship name="things" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Thing" inverseName="owner" inverseEntity="Thing"/>
                </entity>
                <entity name="Thing">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="things" inverseEntity="Owner"/>
                </entity>
                """),
        ])

    package func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        for relationship in entity.relationships {
            guard let inverseName = relationship.inverseName, !inverseName.isEmpty,
                let destination = model.entity(named: relationship.destinationEntity)
            else { continue }
            func report(_ why: String) {
                findings.append(
                    Finding(
                        "\(entity.name).\(relationship.name) has inverse \(destination.name).\(inverseName), but \(why)",
                        at: relationship.location, entity: entity.name, property: relationship.name))
            }
            if let inverseEntity = relationship.inverseEntity, inverseEntity != destination.name,
                model.entity(named: inverseEntity) != nil
            {
                report("its inverseEntity is \(inverseEntity), not its destination \(destination.name)")
                continue
            }
            guard let property = model.effectiveProperty(named: inverseName, in: destination) else {
                report("\(destination.name) has no property \(inverseName)")
                continue
            }
            guard case .relationship(let inverse) = property else {
                report("\(destination.name).\(inverseName) is an attribute")
                continue
            }
            if let back = inverse.destinationEntity, !model.ancestry(of: entity).contains(where: { $0.name == back }) {
                report("\(destination.name).\(inverseName) points at \(back), not \(entity.name)")
            } else if let backName = inverse.inverseName, backName != relationship.name {
                report("\(destination.name).\(inverseName) names \(backName) as its inverse, not \(relationship.name)")
            }
        }
        return findings
    }
}
