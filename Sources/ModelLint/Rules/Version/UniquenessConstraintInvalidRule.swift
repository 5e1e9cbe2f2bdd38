import ModelLintModel

package struct UniquenessConstraintInvalidRule: VersionRule {
    package init() {}

    package static let description = RuleDescription(
        id: "uniqueness-constraint-invalid", category: .singleVersion, severity: .error,
        summary:
            "a uniqueness constraint naming a missing property or a to-many relationship, or on the target of a mandatory to-one",
        rationale: """
            Uniqueness constraints may name attributes and to-one relationships only. A constraint naming a property \
            that does not exist, or a to-many relationship, makes the model fail to load. On an entity that a required \
            to-one relationship points at, resolving a constraint conflict deletes an object that other objects must \
            point at, and the save fails.
            """,
        fix:
            "constrain attributes or to-one relationships that exist; make the to-one relationship pointing at the entity optional, or drop the constraint",
        examples: [
            .triggering(
                """
                <entity name="Thing">
                    <attribute name="id" attributeType="String"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="thing" inverseEntity="Tag"/>
                    <uniquenessConstraints>
                        ↓<uniquenessConstraint>
                            <constraint value="identifier"/>
                        </uniquenessConstraint>
                        ↓<uniquenessConstraint>
                            <constraint value="tags"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <entity name="Tag">
                    <relationship name="thing" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing" inverseName="tags" inverseEntity="Thing"/>
                </entity>
                """),
            .triggering(
                """
                <entity name="Account">
                    <attribute name="id" attributeType="String"/>
                    <relationship name="wallet" maxCount="1" deletionRule="Nullify" destinationEntity="Wallet" inverseName="account" inverseEntity="Wallet"/>
                </entity>
                <entity name="Wallet">
                    <attribute name="id" attributeType="String"/>
                    <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="wallet" inverseEntity="Account"/>
                    <uniquenessConstraints>
                        ↓<uniquenessConstraint>
                            <constraint value="id"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                """),
            .passing(
                """
                <entity name="Thing">
                    <attribute name="id" attributeType="String"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="id"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                """),
        ])

    package func check(_ model: Model, context: RuleContext) -> [Finding] {
        var findings: [Finding] = []
        for entity in model.entities where !entity.uniquenessConstraints.isEmpty {
            let mandatoryToOnes = model.entities.flatMap { source in
                source.relationships
                    .filter { !$0.isOptional && !$0.isToMany && !$0.isTransient && $0.destinationEntity == entity.name }
                    .map { "\(source.name).\($0.name)" }
            }
            for constraint in entity.uniquenessConstraints {
                var problems: [String] = []
                for name in constraint.properties {
                    switch model.effectiveProperty(named: name, in: entity) {
                    case nil: problems.append("\(name) is not a property of \(entity.name)")
                    case .relationship(let r)? where r.isToMany: problems.append("\(name) is a to-many relationship")
                    default: break
                    }
                }
                if problems.isEmpty, let first = mandatoryToOnes.first {
                    problems.append("\(entity.name) is the destination of the required to-one relationship \(first)")
                }
                guard !problems.isEmpty else { continue }
                findings.append(
                    Finding(
                        "\(entity.name)'s uniqueness constraint (\(constraint.properties.joined(separator: ", "))) is invalid: \(problems.joined(separator: "; "))",
                        at: constraint.location, entity: entity.name))
            }
        }
        return findings
    }
}
